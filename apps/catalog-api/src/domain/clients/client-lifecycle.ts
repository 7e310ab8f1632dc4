import { type GrantableScope, ServiceError } from '@catalog/contracts';
import { generateClientSecret, hashClientSecret } from '@catalog/server-runtime';
import type {
  Actor,
  AuditContext,
  CatalogStore,
  ClientPatch,
  ExpectedVersion,
  StoredClient,
} from '@catalog/store';
import { ClientValidationError } from './client-validation-error.ts';
import { generateClientId } from './generate-client-id.ts';

/** Tokens of clients created through the API live one hour (spec 2.5; legacy imports keep 86400 s). */
export const NEW_CLIENT_TOKEN_LIFETIME_S = 3600;
const DAY_MS = 86_400_000;

const clientNotFound = () => new ServiceError(404, 'NOT_FOUND', 'Client not found');

async function existingClient(store: CatalogStore, clientId: string): Promise<StoredClient> {
  const client = await store.clients.get(clientId);
  if (client === undefined) throw clientNotFound();
  return client;
}

const unique = (scopes: readonly GrantableScope[]) => [...new Set(scopes)];

/** POST /oauth/clients: a new active client and its secret, which is never stored or shown again. */
export async function createClient(input: {
  readonly store: CatalogStore;
  readonly pepper: Uint8Array;
  readonly actor: Actor;
  readonly audit: AuditContext;
  readonly now: Date;
  readonly request: {
    readonly clientName: string;
    readonly description?: string | undefined;
    readonly scopes: readonly GrantableScope[];
    readonly expiresInDays?: number | undefined;
  };
}): Promise<{ client: StoredClient; secret: string }> {
  const { request } = input;
  const secret = generateClientSecret();
  const client = await input.store.clients.create(
    {
      clientId: generateClientId(),
      clientName: request.clientName,
      ...(request.description === undefined ? {} : { description: request.description }),
      scopes: unique(request.scopes),
      createdBy: input.actor,
      expiresAt:
        request.expiresInDays === undefined
          ? null
          : new Date(input.now.getTime() + request.expiresInDays * DAY_MS).toISOString(),
      secretHash: hashClientSecret(secret, input.pepper),
      tokenLifetimeSeconds: NEW_CLIENT_TOKEN_LIFETIME_S,
    },
    input.audit,
  );
  return { client, secret };
}

/**
 * PUT /oauth/clients/{clientId}: rename, rescope or rebind an active client. A revoked client is
 * frozen (spec 3); a channel must be registered; tokens already issued keep their scopes.
 */
export async function updateClient(input: {
  readonly store: CatalogStore;
  readonly clientId: string;
  readonly patch: ClientPatch;
  readonly audit: AuditContext;
  /** The versions the caller's If-Match names; undefined writes whatever is stored. */
  readonly expected?: ExpectedVersion;
}): Promise<StoredClient> {
  const client = await existingClient(input.store, input.clientId);
  if (client.status === 'revoked') {
    // No `details`: the client-management error body of the contract carries message, error and errors only.
    throw new ServiceError(
      400,
      'INVALID_PARAMETER',
      'A revoked client cannot be updated; create a new client',
    );
  }
  const { channel } = input.patch;
  if (typeof channel === 'string' && (await input.store.webChannels.get(channel)) === undefined) {
    throw new ClientValidationError([
      { field: 'channel', message: `Channel "${channel}" is not in the web-channel registry` },
    ]);
  }
  const patch: ClientPatch = { ...input.patch };
  if (patch.scopes !== undefined) patch.scopes = unique(patch.scopes);
  return input.store.clients.update(input.clientId, patch, input.audit, input.expected);
}

/** DELETE /oauth/clients/{clientId}: irreversible revocation (spec 3, rule 1). */
export async function revokeClient(input: {
  readonly store: CatalogStore;
  readonly clientId: string;
  readonly actor: Actor;
  readonly audit: AuditContext;
  readonly expected?: ExpectedVersion;
}): Promise<StoredClient> {
  const client = await existingClient(input.store, input.clientId);
  if (client.status === 'revoked') {
    throw new ServiceError(400, 'INVALID_PARAMETER', 'The client is already revoked');
  }
  return input.store.clients.revoke(input.clientId, input.actor, input.audit, input.expected);
}

/**
 * POST /oauth/clients/{clientId}/rotate-secret changes nothing, but a security review asks who was
 * told how to replace a client's secret: recorded for an existing client only (the instructions are
 * the same for any id, and an unknown id names no target).
 */
export async function recordRotationRequest(input: {
  readonly store: CatalogStore;
  readonly clientId: string;
  readonly audit: AuditContext;
}): Promise<void> {
  if ((await input.store.clients.get(input.clientId)) === undefined) return;
  const { actor, sourceIp, requestId } = input.audit;
  await input.store.audit.append({
    actor,
    sourceIp,
    requestId,
    action: 'client.rotate-secret',
    target: { type: 'client', id: input.clientId },
  });
}

/**
 * The body of a PUT or of a merge patch (RFC 7396) as the patch of `updateClient`: the fields are all
 * top-level, so each member is that field's new value; in a merge patch `null` removes it, which
 * undoes a channel binding and empties a description (the schemas let no other field be null).
 */
export function clientPatchOf(patch: {
  readonly clientName?: string | undefined;
  readonly description?: string | null | undefined;
  readonly scopes?: GrantableScope[] | undefined;
  readonly channel?: string | null | undefined;
}): ClientPatch {
  const { clientName, description, scopes, channel } = patch;
  return {
    ...(clientName === undefined ? {} : { clientName }),
    ...(description === undefined ? {} : { description: description ?? '' }),
    ...(scopes === undefined ? {} : { scopes }),
    ...(channel === undefined ? {} : { channel }),
  };
}
