import type { ClientScope } from '@catalog/store';

/** What the token endpoint needs of an M2M client that may obtain tokens right now. */
export interface IssuableClient {
  readonly clientId: string;
  /** Peppered HMAC of the secret (decisions: Identity); the secret itself is never stored. */
  readonly secretHash: string;
  readonly scopes: readonly ClientScope[];
  readonly tokenLifetimeSeconds: number;
}

/**
 * The M2M clients as the token endpoint sees them, read from the shared store on every request so
 * that revocation and expiry apply from the next request (spec 3, 5.8-5.9).
 */
export interface IssuableClients {
  /** The client when it exists, is active and has not passed expiresAt; otherwise undefined. */
  find(clientId: string, now: Date): Promise<IssuableClient | undefined>;
  /** Records the time of a successful token exchange (lastUsedAt, spec 2.4). */
  recordTokenExchange(clientId: string, at: Date): Promise<void>;
}
