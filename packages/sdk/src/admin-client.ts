// createAdminClient: the client-management routes (spec 4.2), called with an administrator's ID token.
import type {
  CatalogApi,
  ClientCreateRequest,
  ClientRevocation,
  ClientUpdateRequest,
  M2MClient,
  M2MClientCreated,
  M2MClientList,
  SecretRotationInstructions,
} from '@catalog/contracts';
import { ConfigurationError } from './errors.ts';
import { httpsUrl, rejectUnknownKeys, type TransportOptions, transportSettings } from './http/settings.ts';
import { type CallOptions, type HttpCall, send } from './http/transport.ts';
import { buildUrl } from './resources/query.ts';

export type ListClientsQuery = NonNullable<CatalogApi.operations['listM2MClients']['parameters']['query']>;

export interface AdminClientOptions extends TransportOptions {
  readonly baseUrl: string | URL;
  /** The administrator's ID token, or a function returning a current one. */
  readonly idToken: string | (() => string | Promise<string>);
}

export interface AdminClient {
  readonly clients: {
    list(query?: ListClientsQuery, options?: CallOptions): Promise<M2MClientList>;
    /** The reply carries the client secret: it is shown only once. */
    create(body: ClientCreateRequest, options?: CallOptions): Promise<M2MClientCreated>;
    update(clientId: string, body: ClientUpdateRequest, options?: CallOptions): Promise<M2MClient>;
    revoke(clientId: string, options?: CallOptions): Promise<ClientRevocation>;
    /** Instructions for a manual rotation; the secret is not rotated by this call. */
    rotationInstructions(clientId: string, options?: CallOptions): Promise<SecretRotationInstructions>;
  };
  close(): Promise<void>;
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  rejectUnknownKeys(options, ['baseUrl', 'idToken']);
  const base = httpsUrl(options.baseUrl, 'baseUrl');
  if (!options.idToken) throw new ConfigurationError({ message: 'idToken is required' });
  // Client management is not paced like catalog reads, and writes are not retried (not idempotent).
  const { settings, owned } = transportSettings({ pacing: false, ...options });
  const idToken = options.idToken;
  const auth = {
    header: async () => `Bearer ${typeof idToken === 'string' ? idToken : await idToken()}`,
    rejected: () => undefined,
  };
  const call = async <T>(
    http: Omit<HttpCall, 'auth'>,
    options?: CallOptions,
    idempotent = false,
  ): Promise<T> =>
    (await send<T>(settings, { ...http, auth }, idempotent ? options : { maxAttempts: 1, ...options })).body;
  const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });
  const clientPath = (clientId: string) => `oauth/clients/${encodeURIComponent(clientId)}`;

  return {
    clients: {
      list: (query, opts) => call({ method: 'GET', url: buildUrl(base, 'oauth/clients', query) }, opts, true),
      create: (body, opts) =>
        call({ method: 'POST', url: buildUrl(base, 'oauth/clients'), ...json(body) }, opts),
      update: (clientId, body, opts) =>
        call({ method: 'PUT', url: buildUrl(base, clientPath(clientId)), ...json(body) }, opts),
      revoke: (clientId, opts) => call({ method: 'DELETE', url: buildUrl(base, clientPath(clientId)) }, opts),
      rotationInstructions: (clientId, opts) =>
        call({ method: 'POST', url: buildUrl(base, `${clientPath(clientId)}/rotate-secret`) }, opts),
    },
    close: async () => {
      await owned?.close();
    },
  };
}
