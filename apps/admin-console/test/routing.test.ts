import { describe, expect, it } from 'vitest';
import { routeFromPath } from '../src/routing.ts';

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
