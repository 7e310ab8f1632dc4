// What the operator CLI (`pnpm admin …`) needs from the token server.

export { StoreAuditTrail } from '../adapters/store-audit-trail.ts';
export {
  AdminOperationError,
  AdminUserNotFoundError,
  SignInError,
  WeakPasswordError,
} from '../errors/admin-errors.ts';
export {
  type RotationReport,
  RotationTooEarlyError,
  rotateSigningKeys,
} from '../keys/rotate-signing-keys.ts';
export { SigningKeySetChangedError, SigningKeySetError } from '../keys/signing-key-set-errors.ts';
export { ADMIN_CLI_REDIRECT_URI, ADMIN_CLIENT_ID } from '../oidc/admin-client.ts';
export { API_AUDIENCE, API_SCOPE_PREFIX } from '../oidc/api-resource.ts';
export { OIDC_ROUTES } from '../oidc/routes.ts';
export type { AuditTrail } from '../ports/audit-trail.ts';
export type { SigningKeyStore, StoredSigningKeySet } from '../ports/signing-key-store.ts';
export {
  type AdminUserSummary,
  createAdminUser,
  disableAdminUser,
  listAdminUsers,
  MIN_PASSWORD_LENGTH,
} from './admin-users.ts';
export { openDeploymentSigningKeys, signingKeysForCopy } from './deployment-signing-keys.ts';
export { obtainAdminIdToken } from './obtain-admin-id-token.ts';
export { loginForm } from './sign-in-through-login-page.ts';
