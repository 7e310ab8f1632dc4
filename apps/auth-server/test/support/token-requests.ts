import { rawRequest } from '@catalog/server-runtime/testing';
import { createLocalJWKSet, type JWTVerifyResult, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { fetchTrusting } from './https-fetch.ts';
import type { TestServer } from './test-server.ts';

export interface TokenReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: Record<string, unknown>;
}

/** A token request exactly as given: form fields and headers, nothing added but the content type. */
export async function postToken(
  server: TestServer,
  form: Record<string, string>,
  headers: Record<string, string> = {},
  /** The address to connect from (127.0.0.2: a caller other than a proxy on 127.0.0.1). */
  localAddress?: string,
): Promise<TokenReply> {
  const reply = await rawRequest(`${server.url}/oauth2/token`, {
    method: 'POST',
    ca: server.ca,
    ...(localAddress ? { localAddress } : {}),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: reply.status,
    headers: reply.headers,
    json: JSON.parse(reply.body) as Record<string, unknown>,
  };
}

export const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** openid-client configured for an M2M client, with post-body or HTTP Basic authentication. */
export async function oauthClient(
  server: TestServer,
  clientId: string,
  secret: string,
  method: 'post' | 'basic' = 'post',
): Promise<oidc.Configuration> {
  const auth = method === 'post' ? oidc.ClientSecretPost(secret) : oidc.ClientSecretBasic(secret);
  const config = await oidc.discovery(new URL(server.url), clientId, undefined, auth, {
    [oidc.customFetch]: fetchTrusting(server.ca),
  } as oidc.DiscoveryRequestOptions);
  config[oidc.customFetch] = fetchTrusting(server.ca) as oidc.CustomFetch;
  return config;
}

/** Fetches the published JWKS and verifies an access token as the catalog API will. */
export async function verifyAccessToken(server: TestServer, token: string): Promise<JWTVerifyResult> {
  const jwks = JSON.parse((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca: server.ca })).body);
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: server.url,
    audience: 'crm-api',
    algorithms: ['ES256'],
    typ: 'at+jwt',
  });
}
