import type { Adapter } from 'oidc-provider';

/** Room held for one new sign-in while the request creating it runs. */
export interface SignInRoom {
  release(): void;
}

/**
 * Where oidc-provider keeps sign-ins in progress: interactions, sessions, grants, authorization
 * codes (every model but Client). In this process by default; in Redis when several token servers
 * must see the same sign-ins. Memory is bounded at the door: a new sign-in (an interaction, the only
 * entry an unauthenticated caller can create) first reserves room, none is given past the capacity
 * of live interactions, and no entry is ever evicted to make room. When the store cannot answer, its
 * methods reject with SignInStoreUnavailable.
 */
export interface SignIns {
  /** oidc-provider's adapter for one model (never Client). */
  adapter(model: string): Adapter;
  /** Room for one new sign-in, or undefined when the capacity is reached. */
  reserve(): Promise<SignInRoom | undefined>;
}
