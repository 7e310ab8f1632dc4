// Every response the conformance suite sees is checked against the OpenAPI documents: `call` finds the
// operation of a method and path in the catalog API document and validates the body with
// `validateResponse` before the test looks at it; token-endpoint replies go through the token server's
// document the same way.
import {
  CATALOG_OPERATIONS,
  type CatalogOperationId,
  validateAuthServerResponse,
  validateResponse,
} from '@catalog/contracts';
import { rawRequest, requestAccessToken } from '@catalog/server-runtime/testing';
import { expect } from 'vitest';
import type { E2EStack, JsonReply } from '../../support/stack.ts';

interface Matcher {
  readonly operationId: CatalogOperationId;
  readonly method: string;
  readonly pattern: RegExp;
  readonly parameters: number;
}

const matchers: readonly Matcher[] = [...CATALOG_OPERATIONS.values()]
  .map((operation) => {
    const parameters = (operation.path.match(/\{[^}]+\}/g) ?? []).length;
    const source = operation.path
      .replaceAll(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replaceAll(/\{([^}]+)\}/g, (_, name: string) => (name === 'clientsPath' ? '.+' : '[^/]+'));
    return {
      operationId: operation.operationId,
      method: operation.method,
      pattern: new RegExp(`^${source}$`),
      parameters,
    };
  })
  // Fixed paths before parameters, as the router registers them (/products/search before /products/{id}).
  .sort((a, b) => a.parameters - b.parameters);

/** The operation a method and path (relative to the base URL, query allowed) stands for, if any. */
export function operationOf(method: string, path: string): CatalogOperationId | undefined {
  const bare = path.split('?')[0] ?? path;
  return matchers.find((matcher) => matcher.method === method.toUpperCase() && matcher.pattern.test(bare))
    ?.operationId;
}

/** Fails the test when `body` is not what the document says `operationId` answers with `status`. */
export function expectConforms(operationId: CatalogOperationId, status: number, body: unknown): void {
  const issues = validateResponse(operationId, status, body);
  expect(
    issues,
    `${operationId} ${status} body departs from the OpenAPI document: ${JSON.stringify(body)?.slice(0, 400)}`,
  ).toEqual([]);
}

/** An error body of a route the document does not describe (unknown path): the general ErrorBody. */
export function expectErrorBody(status: number, body: unknown): void {
  // GET /products/{productId} documents 404 as the general ErrorBody.
  expect(validateResponse('getProduct', 404, body), `${status} ${JSON.stringify(body)}`).toEqual([]);
}

export type CallOptions = NonNullable<Parameters<E2EStack['api']>[1]> & {
  /** The operation to validate against when the path alone does not tell (defaults to the path's). */
  readonly operationId?: CatalogOperationId;
};

export type Call = (path: string, options?: CallOptions) => Promise<JsonReply>;

/** `stack.api`, with every reply validated against the document. */
export function contractCall(stack: E2EStack): Call {
  return async (path, options = {}) => {
    const { operationId: explicit, ...request } = options;
    const reply = await stack.api(path, request);
    const operationId = explicit ?? operationOf(request.method ?? 'GET', path);
    if (operationId === undefined) {
      if (reply.status >= 400) expectErrorBody(reply.status, reply.body);
    } else expectConforms(operationId, reply.status, reply.body);
    return reply;
  };
}

export interface TokenReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** POST {auth_url}/oauth2/token with a raw form, the reply validated against the token server's document. */
export async function tokenRequest(
  stack: E2EStack,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenReply> {
  const reply = await rawRequest(`${stack.authUrl}/oauth2/token`, {
    method: 'POST',
    ca: stack.ca,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  expect(
    validateAuthServerResponse('issueToken', reply.status, body),
    `issueToken ${reply.status}: ${reply.body.slice(0, 300)}`,
  ).toEqual([]);
  return { status: reply.status, body, headers: reply.headers };
}

/** A token for prefixed scopes as an integrator sends them; undefined when refused. */
export async function tokenFor(
  stack: E2EStack,
  credentials: { clientId: string; clientSecret: string },
  scopes: readonly string[],
): Promise<string | undefined> {
  const reply = await requestAccessToken({ authUrl: stack.authUrl, ca: stack.ca, ...credentials, scopes });
  return reply.token;
}

/** The payload of a JWT (no verification: the API verifies; the test reads the claims). */
export function jwtPayload(token: string): Record<string, unknown> {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
