import type { Adapter } from 'oidc-provider';

/** An interaction kept from eviction; `release` makes it evictable again (as the newest). */
export interface KeptSignIn {
  release(): Promise<void>;
}

/**
 * Where oidc-provider keeps sign-ins in progress: interactions, sessions, grants, authorization
 * codes (every model but Client). In this process by default; in Redis when several token servers
 * must see the same sign-ins.
 *
 * Anyone can start a sign-in, so an interaction nobody has authenticated in is cheap to lose: at
 * most `capacity` of them are held, and a new one evicts the oldest (its browser sees the expired
 * page and starts again) rather than being refused. An interaction whose password is being checked
 * or has been accepted is kept: never evicted, at most `capacity` of them, and only a new one past
 * that is refused. A caller proves nothing by asking for the login page, so no number of callers
 * can hold a place an administrator needs. Sessions, grants and codes exist only after a sign-in
 * succeeded and are not counted. When the store cannot answer, its methods reject with
 * SignInStoreUnavailable.
 */
export interface SignIns {
  /** oidc-provider's adapter for one model (never Client). */
  adapter(model: string): Adapter;
  /**
   * Keeps the interaction `uid` from eviction: 'full' when `capacity` are kept already, 'gone' when
   * it has expired or been evicted.
   */
  keep(uid: string): Promise<KeptSignIn | 'full' | 'gone'>;
}
