import { describe, expect, it } from 'vitest';
import { authUrlOf, curlTokenCommand, sdkSnippet, shellQuote } from '../src/domain/snippets.ts';

describe('curl snippet', () => {
  it('asks for the client credentials token with the prefixed scopes', () => {
    expect(
      curlTokenCommand({
        tokenEndpoint: 'https://localhost:4000/oauth2/token',
        clientId: 'abcdefghijklmnopqrstuvwxyz',
        clientSecret: 's3cr3t-_X',
        scopes: ['products.read', 'brands.read'],
      }),
    ).toBe(
      'curl -s https://localhost:4000/oauth2/token -d grant_type=client_credentials -d client_id=abcdefghijklmnopqrstuvwxyz ' +
        "--data-urlencode client_secret=s3cr3t-_X -d scope='crm-api/products.read crm-api/brands.read'",
    );
  });

  it('quotes what the shell would split or expand', () => {
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('$HOME')).toBe("'$HOME'");
    expect(shellQuote('plain')).toBe('plain');
  });
});

describe('SDK snippet', () => {
  it('uses createCatalogClient with baseUrl, authUrl and clientId, the secret from the environment', () => {
    const text = sdkSnippet({
      apiBaseUrl: 'https://localhost:3000/prod',
      tokenEndpoint: 'https://localhost:4000/prod/oauth2/token',
      clientId: 'abcdefghijklmnopqrstuvwxyz',
    });
    expect(text).toContain("import { createCatalogClient } from '@catalog/sdk';");
    expect(text).toContain('baseUrl: "https://localhost:3000/prod"');
    expect(text).toContain('authUrl: "https://localhost:4000/prod"');
    expect(text).toContain('clientId: "abcdefghijklmnopqrstuvwxyz"');
    expect(text).toContain('process.env.CATALOG_CLIENT_SECRET');
  });

  it('authUrl is the token endpoint without /oauth2/token', () => {
    expect(authUrlOf('https://auth.example.com/oauth2/token')).toBe('https://auth.example.com');
  });
});
