import type { GrantableScope } from '@catalog/contracts';

/** An integrator calling with a client-credentials access token. */
export interface M2MPrincipal {
  readonly kind: 'm2m';
  readonly clientId: string;
  /** Scopes the token carries, without the `crm-api/` prefix. */
  readonly scopes: ReadonlySet<GrantableScope>;
}

/** A person calling with an ID token from the admin sign-in flow. */
export interface UserPrincipal {
  readonly kind: 'user';
  readonly userId: string;
  readonly userName: string;
  readonly groups: readonly string[];
}

export type Principal = M2MPrincipal | UserPrincipal;
