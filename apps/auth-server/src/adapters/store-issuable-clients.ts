import { type ClientStore, isClientUsable } from '@catalog/store';
import type { IssuableClient, IssuableClients } from '../ports/issuable-clients.ts';

/** M2M clients straight from the shared store: no cache, so a revocation counts from the next request. */
export class StoreIssuableClients implements IssuableClients {
  readonly #clients: ClientStore;

  constructor(clients: ClientStore) {
    this.#clients = clients;
  }

  async find(clientId: string, now: Date): Promise<IssuableClient | undefined> {
    const client = await this.#clients.get(clientId);
    if (client === undefined || !isClientUsable(client, now)) return undefined;
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
