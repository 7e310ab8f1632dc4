import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import type { IssuableClients } from '../ports/issuable-clients.ts';
import { m2mClientMetadata } from './m2m-client-metadata.ts';

/** The Client model, read-only, from the shared store; clients are managed by the catalog API. */
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
 * grants and authorization codes live only for a sign-in, so they stay in this process's memory;
 * the storage is created once and outlives provider rebuilds (key rotation), so a sign-in in
 * progress survives a reload. Access tokens are JWTs and are never stored.
 */
export function adapterFactory(clients: IssuableClients): AdapterFactory {
  const memory = createMemoryAdapter();
  const clientAdapter = new IssuableClientAdapter(clients);
  return (model) => (model === 'Client' ? clientAdapter : memory(model));
}
