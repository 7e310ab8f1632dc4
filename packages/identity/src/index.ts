// What the token server and the operator CLI both need: administrators' accounts, an administrator's
// ID token obtained through the token server's login page, and the deployment's signing keys.

export {
  type AdminUserSummary,
  createAdminUser,
  disableAdminUser,
  listAdminUsers,
  MIN_PASSWORD_LENGTH,
} from './accounts/admin-users.ts';
export { isDisabledHash, verifyPassword } from './accounts/password-hash.ts';
export { FileSigningKeyStore } from './adapters/file-signing-keys/file-signing-key-store.ts';
export { SharedSigningKeyStore } from './adapters/shared-signing-keys/shared-signing-key-store.ts';
export { StoreAuditTrail } from './adapters/store-audit-trail.ts';
export { AdminOperationError, AdminUserNotFoundError, WeakPasswordError } from './errors/admin-errors.ts';
export { type HttpsReply, HttpsSession } from './id-token/https-session.ts';
export { obtainAdminIdToken } from './id-token/obtain-admin-id-token.ts';
export { loginForm, signInThroughLoginPage } from './id-token/sign-in-through-login-page.ts';
export {
  type DeploymentPepper,
  existingDeploymentPepper,
  signingKeysForCopy,
} from './keys/deployment-signing-keys.ts';
export { ensureSigningKeys } from './keys/ensure-signing-keys.ts';
export { generateSigningKey } from './keys/generate-signing-key.ts';
export { RETIRED_KEY_RETENTION_SECONDS } from './keys/key-retention.ts';
export { type ProviderJwk, providerJwks } from './keys/published-keys.ts';
export {
  type RotationReport,
  RotationTooEarlyError,
  rotateSigningKeys,
} from './keys/rotate-signing-keys.ts';
export { type SigningKeySet, signingKeysFile } from './keys/signing-key-set.ts';
export { SigningKeySetChangedError, SigningKeySetError } from './keys/signing-key-set-errors.ts';
export { ADMIN_CLI_REDIRECT_URI, ADMIN_CLIENT_ID, ADMIN_SCOPE } from './oidc/admin-client.ts';
export { API_AUDIENCE, API_RESOURCE, API_SCOPE_PREFIX } from './oidc/api-resource.ts';
export { INTERACTION_PATH, OIDC_ROUTES } from './oidc/routes.ts';
export type { AuditTrail } from './ports/audit-trail.ts';
export type { SigningKeyStore, StoredSigningKeySet } from './ports/signing-key-store.ts';
export { cookieSigningKeys, loginCsrfKey } from './secrets/pepper-derived-keys.ts';
