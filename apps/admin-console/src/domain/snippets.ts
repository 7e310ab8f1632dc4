// Ready-to-paste snippets shown once, with the new client's secret.
import type { GrantableScope } from '../api/types.ts';
import { tokenScope } from './scopes.ts';

/** A POSIX shell word: left bare when safe, else single-quoted. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface CurlSnippetInput {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly GrantableScope[];
}

/** The client-credentials token request with curl (spec 4.3). */
export function curlTokenCommand(input: CurlSnippetInput): string {
  const scope = input.scopes.map(tokenScope).join(' ');
  return [
    `curl -s ${shellQuote(input.tokenEndpoint)}`,
    '-d grant_type=client_credentials',
    `-d client_id=${shellQuote(input.clientId)}`,
    `--data-urlencode client_secret=${shellQuote(input.clientSecret)}`,
    `-d scope='${scope.replace(/'/g, `'\\''`)}'`,
  ].join(' ');
}

/** `https://auth.example/oauth2/token` → `https://auth.example` (the SDK's `authUrl`). */
export function authUrlOf(tokenEndpoint: string): string {
  return tokenEndpoint.replace(/\/oauth2\/token\/?$/, '');
}

export interface SdkSnippetInput {
  readonly apiBaseUrl: string;
  readonly tokenEndpoint: string;
  readonly clientId: string;
}

/** `@catalog/sdk`'s createCatalogClient with this client; the secret comes from the environment. */
export function sdkSnippet(input: SdkSnippetInput): string {
  return [
    "import { createCatalogClient } from '@catalog/sdk';",
    '',
    'const client = createCatalogClient({',
    `  baseUrl: ${JSON.stringify(input.apiBaseUrl)},`,
    `  authUrl: ${JSON.stringify(authUrlOf(input.tokenEndpoint))}, // tokens come from {authUrl}/oauth2/token`,
    `  clientId: ${JSON.stringify(input.clientId)},`,
    '  clientSecret: process.env.CATALOG_CLIENT_SECRET, // the secret shown above',
    '});',
    '',
    "const page = await client.products.search({ q: 'drill', size: 20 });",
    'await client.close();',
  ].join('\n');
}
