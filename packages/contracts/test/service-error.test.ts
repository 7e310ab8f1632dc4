import { describe, expect, it } from 'vitest';
import { ServiceError } from '../src/index.ts';

describe('ServiceError (spec 7.3 codes with their status)', () => {
  it('takes the status the contract gives a code', () => {
    expect(ServiceError.of('SEARCH_TIMEOUT', 'too slow').status).toBe(504);
    expect(ServiceError.of('INVALID_SYNC_TOKEN', 'stale').status).toBe(400);
    expect(ServiceError.of('IDENTIFIER_LOOKUP_INCOMPLETE', 'probe failed').status).toBe(503);
  });

  it('exposes a deliberate contract error, even a 503, to the caller', () => {
    expect(ServiceError.of('SEARCH_INCOMPLETE', 'retry').expose).toBe(true);
  });

  it('hides the message of an error from 500 up unless told otherwise', () => {
    expect(new ServiceError(500, undefined, 'secret detail').expose).toBe(false);
    expect(new ServiceError(404, 'NOT_FOUND', 'no such product').expose).toBe(true);
  });

  it('names the subclass, so logs say which error it was', () => {
    class NotFound extends ServiceError {}
    expect(new NotFound(404, 'NOT_FOUND', 'x').name).toBe('NotFound');
  });
});
