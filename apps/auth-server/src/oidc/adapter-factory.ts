import Provider, { type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import { TokenRateLimited } from '../limits/too-many-requests.ts';
import type { IssuableClients } from '../ports/issuable-clients.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import type { SignIns } from '../ports/sign-ins.ts';
import { m2mClientMetadata } from './m2m-client-metadata.ts';

/**
 * The Client model, read-only, from the shared store; clients are managed by the catalog API.
 * Every lookup of an M2M client id (the provider's static admin client never comes here) is first
 * counted against that id's limit: the only place the token endpoint's client id is known before
 * any secret is checked.
 */
class IssuableClientAdapter implements Adapter {
  readonly #clients: IssuableClients;
  readonly #perClient: RateLimiter;

  constructor(clients: IssuableClients, perClient: RateLimiter) {
    this.#clients = clients;
    this.#perClient = perClient;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const admission = await this.#perClient.consume(id);
    if (!admission.allowed) {
      Provider.ctx?.set('Retry-After', String(admission.retryAfterSeconds));
      throw new TokenRateLimited(admission.retryAfterSeconds);
    }
    const client = await this.#clients.find(id, new Date());
    return client === undefined ? undefined : m2mClientMetadata(client);
  }

  async upsert(): Promise<void> {
    throw new Error('clients are managed through the catalog API, not the token server');
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async findByUid(): Promise<undefined> {
    return undefined;
  }

  async consume(): Promise<void> {}

  async destroy(): Promise<void> {}

  async revokeByGrantId(): Promise<void> {}
}

/**
 * Models for oidc-provider. Clients come from the store on every lookup. Sessions, interactions,
 * grants and authorization codes live only for a sign-in, in the SignIns store (this process's
 * memory, or Redis shared by every instance); it is created once and outlives provider rebuilds
 * (key rotation), so a sign-in in progress survives a reload. Integrators' access tokens are JWTs
 * and are never stored: client credentials need nothing but the store and the keys.
 */
export function adapterFactory(input: {
  readonly clients: IssuableClients;
  readonly perClient: RateLimiter;
  readonly signIns: SignIns;
}): AdapterFactory {
  const clientAdapter = new IssuableClientAdapter(input.clients, input.perClient);
  return (model) => (model === 'Client' ? clientAdapter : input.signIns.adapter(model));
}
