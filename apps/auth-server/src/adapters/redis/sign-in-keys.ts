/** Where the sign-ins in progress live in Redis, every key under the deployment's prefix. */
export interface SignInKeys {
  /** A hash: `payload` (the model's JSON) and, once consumed, `consumed` (epoch seconds). */
  artefact(model: string, id: string): string;
  /** A list of the artefact keys issued under one grant, for revokeByGrantId. */
  grant(grantId: string): string;
  /** A session's id by its uid, for findByUid. */
  sessionUid(uid: string): string;
  /** A sorted set of the live interactions and reservations, each scored by when it expires (epoch ms). */
  readonly signIns: string;
}

export function signInKeys(keyPrefix: string): SignInKeys {
  const oidc = `${keyPrefix}oidc:`;
  return {
    artefact: (model, id) => `${oidc}${model}:${id}`,
    grant: (grantId) => `${oidc}grant:${grantId}`,
    sessionUid: (uid) => `${oidc}sessionUid:${uid}`,
    signIns: `${oidc}sign-ins`,
  };
}

/** The sign-ins index member of an interaction (the others are reservations). */
export const interactionMember = (id: string) => `interaction:${id}`;
