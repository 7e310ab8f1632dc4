import type { InteractionKeys } from './sign-in-scripts.ts';

/** Where the sign-ins in progress live in Redis, every key under the deployment's prefix. */
export interface SignInKeys {
  /** A hash: `payload` (the model's JSON) and, once consumed, `consumed` (epoch seconds). */
  artefact(model: string, id: string): string;
  /** A list of the artefact keys issued under one grant, for revokeByGrantId. */
  grant(grantId: string): string;
  /** A session's id by its uid, for findByUid. */
  sessionUid(uid: string): string;
  /**
   * A sorted set of the open interactions' keys (nobody authenticated in them yet), each scored by
   * the order it was opened in: the lowest is evicted first.
   */
  readonly openInteractions: string;
  /** A sorted set of the kept interactions' keys (password checked or accepted), each scored by when it expires (epoch ms). */
  readonly keptInteractions: string;
}

export function signInKeys(keyPrefix: string): SignInKeys {
  const oidc = `${keyPrefix}oidc:`;
  return {
    artefact: (model, id) => `${oidc}${model}:${id}`,
    grant: (grantId) => `${oidc}grant:${grantId}`,
    sessionUid: (uid) => `${oidc}sessionUid:${uid}`,
    openInteractions: `${oidc}interactions:open`,
    keptInteractions: `${oidc}interactions:kept`,
  };
}

/** The keys the interaction scripts work on for the interaction `id`. */
export function interactionKeys(keys: SignInKeys, id: string): InteractionKeys {
  return {
    artefact: keys.artefact('Interaction', id),
    open: keys.openInteractions,
    kept: keys.keptInteractions,
  };
}
