// Callers the conformance suite needs beyond the stack's own administrator: a signed-in user outside
// the admin group (through the built operator CLI, as for the administrator), M2M clients with given
// scopes, and SDK clients on the stack.
import { join } from 'node:path';
import type { GrantableScope } from '@catalog/contracts';
import { type CatalogClientOptions, createCatalogClient } from '@catalog/sdk';
import type { Credentials, E2EStack } from '../../support/stack.ts';

const PASSWORD = 'a staff member password';

async function runAdminCli(stack: E2EStack, args: string[]): Promise<string> {
  const result = await stack.operator('admin', args, PASSWORD);
  if (result.code !== 0)
    throw new Error(`admin ${args.join(' ')} exited with ${result.code}:\n${result.output}`);
  return result.stdout.trim();
}

/** The ID token of a signed-in user who is not in the admin group. */
export async function nonAdminIdToken(stack: E2EStack): Promise<string> {
  const email = `staff.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.test`;
  await runAdminCli(stack, ['users', 'add', '--email', email, '--group', 'staff']);
  return runAdminCli(stack, ['token', '--email', email]);
}

export interface M2MCaller extends Credentials {
  readonly token: string;
  readonly created: Record<string, unknown>;
}

const adminTokens = new WeakMap<E2EStack, Promise<string>>();

/** The stack administrator's ID token, signed in once per stack (the login flow is slow). */
export function adminToken(stack: E2EStack): Promise<string> {
  let token = adminTokens.get(stack);
  if (token === undefined) {
    token = stack.adminIdToken();
    adminTokens.set(stack, token);
  }
  return token;
}

/** A client created through POST /oauth/clients, as an administrator would. */
export async function createM2MClient(
  stack: E2EStack,
  scopes: readonly GrantableScope[],
  body: Record<string, unknown> = {},
): Promise<Credentials & { readonly created: Record<string, unknown> }> {
  const reply = await stack.api('/oauth/clients', {
    method: 'POST',
    token: await adminToken(stack),
    body: { clientName: `conformance client ${Date.now()}`, scopes, ...body },
  });
  if (reply.status !== 201) throw new Error(`POST /oauth/clients → ${reply.status}: ${reply.text}`);
  const created = reply.body as Record<string, unknown>;
  return { clientId: String(created.clientId), clientSecret: String(created.clientSecret), created };
}

/** A client created through the API and a token for all of its scopes. */
export async function m2mCaller(
  stack: E2EStack,
  scopes: readonly GrantableScope[],
  body: Record<string, unknown> = {},
): Promise<M2MCaller> {
  const client = await createM2MClient(stack, scopes, body);
  return { ...client, token: await stack.accessToken(client, scopes) };
}

/** An SDK client on the stack: short backoffs, no client-side pacing (rate limits are off). */
export function sdkClient(
  stack: E2EStack,
  credentials: Credentials,
  overrides: Partial<CatalogClientOptions> = {},
): ReturnType<typeof createCatalogClient> {
  return createCatalogClient({
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    ca: stack.ca,
    retry: { baseMs: 5, capMs: 50, maxRetryAfterMs: 5_000 },
    pacing: false,
    ...overrides,
  });
}

export const dataFile = (stack: E2EStack, ...parts: string[]) => join(stack.dataDir, ...parts);
