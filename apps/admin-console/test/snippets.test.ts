import { describe, expect, it } from 'vitest';
import { authUrlOf, curlTokenCommand, sdkSnippet, shellQuote } from '../src/domain/snippets.ts';

describe('curl snippet', () => {
  it('asks for the token with the prefixed scopes, loud on failure, the local CA given, the secret from the environment', () => {
    expect(
      curlTokenCommand({
        tokenEndpoint: 'https://localhost:4000/oauth2/token',
        clientId: 'abcdefghijklmnopqrstuvwxyz',
        scopes: ['products.read', 'brands.read'],
        caFile: '/srv/catalog data/tls/ca.pem',
      }),
    ).toBe(
      "curl -sS --fail-with-body --cacert '/srv/catalog data/tls/ca.pem' https://localhost:4000/oauth2/token " +
        '-d grant_type=client_credentials -d client_id=abcdefghijklmnopqrstuvwxyz ' +
        `--data-urlencode "client_secret=$CATALOG_CLIENT_SECRET" -d scope='crm-api/products.read crm-api/brands.read'`,
    );
  });

  it('gives curl no --cacert when the servers have certificates of a real CA', () => {
    const command = curlTokenCommand({
      tokenEndpoint: 'https://auth.example.com/oauth2/token',
      clientId: 'abcdefghijklmnopqrstuvwxyz',
      scopes: ['products.read'],
      caFile: null,
    });
    expect(command).not.toContain('--cacert');
    expect(command).toMatch(/^curl -sS --fail-with-body https:\/\/auth\.example\.com\/oauth2\/token /);
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
      caFile: '/srv/catalog/tls/ca.pem',
    });
    expect(text).toContain("import { createCatalogClient } from '@catalog/sdk';");
    expect(text).toContain('ca: readFileSync("/srv/catalog/tls/ca.pem")');
    expect(text).toContain("import { readFileSync } from 'node:fs';");
    expect(text).toContain('baseUrl: "https://localhost:3000/prod"');
    expect(text).toContain('authUrl: "https://localhost:4000/prod"');
    expect(text).toContain('clientId: "abcdefghijklmnopqrstuvwxyz"');
    expect(text).toContain('process.env.CATALOG_CLIENT_SECRET');
  });

  it('authUrl is the token endpoint without /oauth2/token', () => {
    expect(authUrlOf('https://auth.example.com/oauth2/token')).toBe('https://auth.example.com');
  });
});
