import { ServiceError } from '@catalog/contracts';
import type { Actor, ClientPatch } from '@catalog/store';
import type Router from '@koa/router';
import type { Principal } from '../auth/principal.ts';
import {
  clientPatchOf,
  createClient,
  recordRotationRequest,
  revokeClient,
  updateClient,
} from '../domain/clients/client-lifecycle.ts';
import { clientValidationError } from '../domain/clients/client-validation-error.ts';
import type { AppState } from '../http/app-state.ts';
import { auditContextOf } from '../http/audit-context.ts';
import { contractRoute, type RouteContext } from '../http/contract-route.ts';
import { recordVersion, sendEntityTag, type TagTarget, writeIfMatch } from '../http/entity-tags.ts';
import { publicBaseUrl } from '../http/public-base-url.ts';
import { projectClient } from '../projection/project-catalog.ts';
import type { RouteDeps } from './route-deps.ts';

const SECRET_WARNING =
  'Store this client secret now: it is shown only once and cannot be retrieved later. ' +
  'If it is lost, create a new client and revoke this one.';

function actorOf(principal: Principal | undefined): Actor {
  if (principal?.kind !== 'user') throw new Error('client-management routes run for administrators only');
  return { userId: principal.userId, userName: principal.userName };
}

const clientTag = (clientId: string): TagTarget => ({ kind: 'client', key: clientId });

/** Where people manage clients: the admin console's client list. */
const consoleUrl = (ctx: RouteContext, config: RouteDeps['config']) =>
  `${publicBaseUrl(ctx, config)}/console/clients`;

/** The admin client-management routes of spec 4.2. */
export function m2mClientRoutes(router: Router<AppState>, deps: RouteDeps): void {
  const { store, guards } = deps;
  const asClientError = { onInvalid: clientValidationError };

  contractRoute(
    router,
    guards,
    'listM2MClients',
    async (ctx, { query }) => {
      const clients = await store.clients.list({ status: query.status });
      ctx.body = { clients: clients.map(projectClient), count: clients.length };
    },
    asClientError,
  );

  contractRoute(
    router,
    guards,
    'createM2MClient',
    async (ctx, { body }) => {
      const { client, secret } = await createClient({
        store,
        pepper: deps.secretPepper,
        actor: actorOf(ctx.state.principal),
        audit: auditContextOf(ctx),
        now: deps.now(),
        request: body,
      });
      ctx.status = 201;
      sendEntityTag(ctx, clientTag(client.clientId), client.version);
      ctx.body = {
        ...projectClient(client),
        clientSecret: secret,
        tokenEndpoint: deps.config.tokens.tokenEndpoint,
        warning: SECRET_WARNING,
      };
    },
    asClientError,
  );

  contractRoute(
    router,
    guards,
    'getM2MClient',
    async (ctx, { params: { clientId } }) => {
      const client = await store.clients.get(clientId);
      if (client === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Client not found');
      sendEntityTag(ctx, clientTag(clientId), client.version);
      ctx.body = projectClient(client);
    },
    asClientError,
  );

  /** PUT and PATCH: a PUT body's fields are the merge patch's, except that none may be null. */
  const updateClientAt = async (ctx: RouteContext, clientId: string, patch: ClientPatch) => {
    const client = await writeIfMatch(
      ctx,
      clientTag(clientId),
      'optional',
      (expected) => updateClient({ store, clientId, patch, expected, audit: auditContextOf(ctx) }),
      recordVersion,
    );
    ctx.body = projectClient(client);
  };

  contractRoute(
    router,
    guards,
    'updateM2MClient',
    (ctx, { params: { clientId }, body }) => updateClientAt(ctx, clientId, clientPatchOf(body)),
    asClientError,
  );

  contractRoute(
    router,
    guards,
    'patchM2MClient',
    (ctx, { params: { clientId }, body }) => updateClientAt(ctx, clientId, clientPatchOf(body)),
    asClientError,
  );

  contractRoute(
    router,
    guards,
    'revokeM2MClient',
    async (ctx, { params: { clientId } }) => {
      const client = await writeIfMatch(
        ctx,
        clientTag(clientId),
        'optional',
        (expected) =>
          revokeClient({
            store,
            clientId,
            actor: actorOf(ctx.state.principal),
            audit: auditContextOf(ctx),
            expected,
          }),
        recordVersion,
      );
      ctx.body = {
        message: 'Client revoked',
        clientId: client.clientId,
        clientName: client.clientName,
        revokedAt: client.revokedAt,
        revokedBy: client.revokedBy,
        note:
          'No new token can be issued for this client, and its existing access tokens are rejected from the ' +
          'next request. Revocation is irreversible: create a new client for the integration.',
      };
    },
    asClientError,
  );

  contractRoute(router, guards, 'getSecretRotationInstructions', async (ctx, { params }) => {
    await recordRotationRequest({ store, clientId: params.clientId, audit: auditContextOf(ctx) });
    ctx.body = {
      message: 'Client secrets cannot be rotated through the API; rotate by replacing the client.',
      instructions: [
        'Create a new client with the same scopes (POST /oauth/clients) and note its secret: it is shown only once.',
        'Bind the new client to the same web channel if the old one was bound (PUT /oauth/clients/{clientId}).',
        'Move the integration to the new client ID and secret, and check that it obtains tokens and syncs.',
        'Revoke the old client (DELETE /oauth/clients/{clientId}); its tokens stop working from the next request.',
      ],
      consoleUrl: consoleUrl(ctx, deps.config),
    };
  });
}
