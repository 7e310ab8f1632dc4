import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, fieldKey, mapFieldErrors } from '../src/domain/field-errors.ts';

describe('field errors', () => {
  it('maps dotted and indexed fields to the form field', () => {
    expect(fieldKey('scopes.0')).toBe('scopes');
    expect(fieldKey('/clientName')).toBe('clientName');
    expect(fieldKey('body.description')).toBe('description');
    expect(fieldKey('items[2]')).toBe('items');
  });

  it('puts each message next to its field and the rest in the alert', () => {
    const mapped = mapFieldErrors(
      [
        { field: 'clientName', message: 'Client name must be at least 3 characters long' },
        { field: 'scopes.0', message: 'Invalid scope: clients.read' },
        { field: 'scopes.1', message: 'Invalid scope: quotes.read' },
        { field: 'color', message: 'Unknown field' },
      ],
      ['clientName', 'description', 'scopes', 'expiresInDays'],
    );
    expect(mapped.byField).toEqual({
      clientName: ['Client name must be at least 3 characters long'],
      scopes: ['Invalid scope: clients.read', 'Invalid scope: quotes.read'],
    });
    expect(mapped.unmatched).toEqual(['color: Unknown field']);
  });

  it('reads errors[] and details {field, reason} from error bodies', () => {
    expect(
      fieldErrorsOf({ message: 'x', errors: [{ field: 'clientName', message: 'too short' }, 3] }),
    ).toEqual([{ field: 'clientName', message: 'too short' }]);
    expect(fieldErrorsOf({ message: 'x', details: { field: 'size', reason: 'at most 100' } })).toEqual([
      { field: 'size', message: 'at most 100' },
    ]);
    expect(fieldErrorsOf(null)).toEqual([]);
    expect(fieldErrorsOf({ message: 'x', details: { other: 1 } })).toEqual([]);
  });
});
