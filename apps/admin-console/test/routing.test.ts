import { describe, expect, it } from 'vitest';
import { clientIdFromPath, routeFromPath } from '../src/routing.ts';

describe('routes relative to the base', () => {
  it('resolves the console paths', () => {
    expect(routeFromPath('/console/', '/console/')).toBe('clients');
    expect(routeFromPath('/console', '/console/')).toBe('clients');
    expect(routeFromPath('/console/clients', '/console/')).toBe('clients');
    expect(routeFromPath('/console/channels', '/console/')).toBe('channels');
    expect(routeFromPath('/prod/console/preview', '/prod/console/')).toBe('preview');
    expect(routeFromPath('/prod/console/callback', '/prod/console/')).toBe('callback');
    expect(routeFromPath('/prod/console/elsewhere', '/prod/console/')).toBe('not-found');
    expect(routeFromPath('/other', '/console/')).toBe('not-found');
  });

  it('without a <base>, the base is the page directory', () => {
    expect(routeFromPath('/channels', '/channels')).toBe('channels');
    expect(routeFromPath('/', '/')).toBe('clients');
  });
});

describe("a client's own page", () => {
  const id = 'AbCdEfGhIjKlMnOpQrStUvWx12';

  it('clients/<clientId> is the client route, and gives its client ID', () => {
    expect(routeFromPath(`/console/clients/${id}`, '/console/')).toBe('client');
    expect(clientIdFromPath(`/prod/console/clients/${id}/`, '/prod/console/')).toBe(id);
  });

  it('anything that is not a client ID is no client page', () => {
    expect(routeFromPath('/console/clients/short', '/console/')).toBe('not-found');
    expect(routeFromPath(`/console/clients/${id}/more`, '/console/')).toBe('not-found');
    expect(clientIdFromPath('/console/clients', '/console/')).toBeNull();
  });
});
