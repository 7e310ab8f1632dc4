import { describe, expect, it } from 'vitest';
import {
  fromTokenScope,
  GRANTABLE_SCOPES,
  TOKEN_SCOPE_PREFIX,
  TOKEN_SCOPES,
  toTokenScope,
} from '../src/index.ts';

describe('spec 5.2-5.3: grantable scopes and token scopes', () => {
  it('grantable scopes are products.read, products.write, brands.read, brands.write', () => {
    expect(GRANTABLE_SCOPES).toEqual(['products.read', 'products.write', 'brands.read', 'brands.write']);
  });

  it('token scopes are the grantable ones with the crm-api/ prefix', () => {
    expect(TOKEN_SCOPE_PREFIX).toBe('crm-api/');
    expect(TOKEN_SCOPES).toEqual(GRANTABLE_SCOPES.map(toTokenScope));
  });

  it('only an exact, prefixed, grantable scope maps back', () => {
    expect(fromTokenScope('crm-api/products.read')).toBe('products.read');
    for (const wrong of [
      'products.read',
      'crm-api/Products.read',
      'crm-api/clients.read',
      'CRM-API/brands.read',
    ]) {
      expect(fromTokenScope(wrong)).toBeUndefined();
    }
  });
});
