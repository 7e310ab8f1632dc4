import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { IssuableClients } from '../ports/issuable-clients.ts';
import type { SignIns } from '../ports/sign-ins.ts';
import { m2mClientMetadata } from './m2m-client-metadata.ts';

/**
 * The Client model, read-only, from the shared store; clients are managed by the catalog API.
 * The per-client limit counts failed authentications once the provider has answered
 * (../limits/client-failure-limit.ts), not lookups: a lookup cannot tell the integrator from a
 * guesser.
 */
class IssuableClientAdapter implements Adapter {
  readonly #clients: IssuableClients;

  constructor(clients: IssuableClients) {
    this.#clients = clients;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
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
  readonly signIns: SignIns;
}): AdapterFactory {
  const clientAdapter = new IssuableClientAdapter(input.clients);
  return (model) => (model === 'Client' ? clientAdapter : input.signIns.adapter(model));
}
