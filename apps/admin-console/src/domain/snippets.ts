// Ready-to-paste snippets shown once, with the new client's secret.
import type { GrantableScope } from '../api/types.ts';
import { tokenScope } from './scopes.ts';

/** A POSIX shell word: left bare when safe, else single-quoted. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The environment variable the snippets read the secret from: never in the command, its history or a screen share. */
export const SECRET_VARIABLE = 'CATALOG_CLIENT_SECRET';

export interface CurlSnippetInput {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly scopes: readonly GrantableScope[];
  /** The embedded default's CA certificate, which curl must be given; null with a real CA. */
  readonly caFile: string | null;
}

/**
 * The client-credentials token request with curl (spec 4.3), to paste as it is: silent but for
 * errors (`-sS`), the token server's error body printed and a non-zero exit on a refusal
 * (`--fail-with-body`), the local CA when there is one, the secret from the environment.
 */
export function curlTokenCommand(input: CurlSnippetInput): string {
  const scope = input.scopes.map(tokenScope).join(' ');
  return [
    'curl -sS --fail-with-body',
    ...(input.caFile === null ? [] : [`--cacert ${shellQuote(input.caFile)}`]),
    shellQuote(input.tokenEndpoint),
    '-d grant_type=client_credentials',
    `-d client_id=${shellQuote(input.clientId)}`,
    `--data-urlencode "client_secret=$${SECRET_VARIABLE}"`,
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
  /** The embedded default's CA certificate, which the SDK must be given (`ca`); null with a real CA. */
  readonly caFile: string | null;
}

/** `@catalog/sdk`'s createCatalogClient with this client; the secret comes from the environment. */
export function sdkSnippet(input: SdkSnippetInput): string {
  const local = input.caFile !== null;
  return [
    ...(local ? ["import { readFileSync } from 'node:fs';"] : []),
    "import { createCatalogClient } from '@catalog/sdk';",
    '',
    'const client = createCatalogClient({',
    `  baseUrl: ${JSON.stringify(input.apiBaseUrl)},`,
    `  authUrl: ${JSON.stringify(authUrlOf(input.tokenEndpoint))}, // tokens come from {authUrl}/oauth2/token`,
    `  clientId: ${JSON.stringify(input.clientId)},`,
    `  clientSecret: process.env.${SECRET_VARIABLE}, // the secret shown above`,
    ...(local ? [`  ca: readFileSync(${JSON.stringify(input.caFile)}), // the servers' local CA`] : []),
    '});',
    '',
    "const page = await client.products.search({ q: 'drill', size: 20 });",
    'await client.close();',
  ].join('\n');
}
