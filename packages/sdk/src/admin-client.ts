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

/** A record with the ETag of its version, to send back as `ifMatch` with a write. */
export interface Tagged<T> {
  readonly value: T;
  readonly etag: string;
}

export interface WriteOptions extends CallOptions {
  /**
   * The ETag of the read the change starts from: the write is made only while the client is still at
   * that version, else it rejects with PreconditionFailedError (someone changed it since).
   */
  readonly ifMatch?: string;
}

export interface AdminClient {
  readonly clients: {
    list(query?: ListClientsQuery, options?: CallOptions): Promise<M2MClientList>;
    /** One client with its ETag: pass the ETag as `ifMatch` to `update` or `revoke`. */
    get(clientId: string, options?: CallOptions): Promise<Tagged<M2MClient>>;
    /** The reply carries the client secret: it is shown only once. */
    create(body: ClientCreateRequest, options?: CallOptions): Promise<M2MClientCreated>;
    /** With `ifMatch` (from `get`), rejects with PreconditionFailedError if the client changed since. */
    update(clientId: string, body: ClientUpdateRequest, options?: WriteOptions): Promise<M2MClient>;
    revoke(clientId: string, options?: WriteOptions): Promise<ClientRevocation>;
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
  const exchange = <T>(http: Omit<HttpCall, 'auth'>, options: WriteOptions = {}, idempotent = false) => {
    const { ifMatch, ...callOptions } = options;
    return send<T>(
      settings,
      { ...http, auth, ...(ifMatch === undefined ? {} : { ifMatch }) },
      idempotent ? callOptions : { maxAttempts: 1, ...callOptions },
    );
  };
  const call = async <T>(
    http: Omit<HttpCall, 'auth'>,
    options?: WriteOptions,
    idempotent = false,
  ): Promise<T> => (await exchange<T>(http, options, idempotent)).body;
  const tagged = async <T>(
    http: Omit<HttpCall, 'auth'>,
    options?: WriteOptions,
    idempotent = false,
  ): Promise<Tagged<T>> => {
    const reply = await exchange<T>(http, options, idempotent);
    return { value: reply.body, etag: reply.etag ?? '' };
  };
  const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });
  const clientPath = (clientId: string) => `oauth/clients/${encodeURIComponent(clientId)}`;

  return {
    clients: {
      list: (query, opts) => call({ method: 'GET', url: buildUrl(base, 'oauth/clients', query) }, opts, true),
      create: (body, opts) =>
        call({ method: 'POST', url: buildUrl(base, 'oauth/clients'), ...json(body) }, opts),
      get: (clientId, opts) =>
        tagged({ method: 'GET', url: buildUrl(base, clientPath(clientId)) }, opts, true),
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
