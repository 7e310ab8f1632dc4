import type { ClientStore, StoredClient } from '@catalog/store';
import type { IssuableClient, IssuableClients } from '../ports/issuable-clients.ts';

/** Spec 3, rule 2: a client past expiresAt is effectively revoked, whatever its stored status. */
export function isIssuable(client: StoredClient, now: Date): boolean {
  if (client.status !== 'active') return false;
  return client.expiresAt === null || Date.parse(client.expiresAt) > now.getTime();
}

/** M2M clients straight from the shared store: no cache, so a revocation counts from the next request. */
export class StoreIssuableClients implements IssuableClients {
  readonly #clients: ClientStore;

  constructor(clients: ClientStore) {
    this.#clients = clients;
  }

  async find(clientId: string, now: Date): Promise<IssuableClient | undefined> {
    const client = await this.#clients.get(clientId);
    if (client === undefined || !isIssuable(client, now)) return undefined;
    return {
      clientId: client.clientId,
      secretHash: client.secretHash,
      scopes: client.scopes,
      tokenLifetimeSeconds: client.tokenLifetimeSeconds,
    };
  }

  recordTokenExchange(clientId: string, at: Date): Promise<void> {
    return this.#clients.recordTokenExchange(clientId, at);
  }
}
