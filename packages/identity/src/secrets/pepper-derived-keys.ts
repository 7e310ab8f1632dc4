import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

// One label per purpose: a key derived for one never equals, nor tells anything about, another's.
const COOKIE_SIGNING = 'catalog auth-server: oidc-provider cookie signing key v1';
const LOGIN_CSRF = 'catalog auth-server: login form CSRF key v1';
/** Also bound into each sealed set's associated data (../adapters/shared-signing-keys). */
export const KEY_SET_SEALING = 'catalog auth-server: signing-key set sealing key v1';

/** 32 bytes of HKDF-SHA256 over the pepper for one purpose (no salt: the pepper is a random secret). */
const derive = (pepper: Uint8Array, purpose: string) =>
  Buffer.from(hkdfSync('sha256', pepper, new Uint8Array(0), purpose, 32));

/**
 * The keys that sign oidc-provider's cookies (session, interaction). Every instance of a deployment,
 * and every restart, must sign alike, or a sign-in started on one instance fails on the next; they
 * already share the client-secret pepper, so the keys are derived from it rather than configured.
 */
export const cookieSigningKeys = (pepper: Uint8Array): string[] => [
  derive(pepper, COOKIE_SIGNING).toString('base64url'),
];

/** The key of the login form's CSRF tokens: a form shown by one instance is posted to another. */
export const loginCsrfKey = (pepper: Uint8Array): Uint8Array => derive(pepper, LOGIN_CSRF);

/**
 * The key that seals the signing-key set in the shared store: whoever reads the database, a dump or
 * a backup without the pepper holds no usable key.
 */
export const keySetSealingKey = (pepper: Uint8Array): KeyObject =>
  createSecretKey(derive(pepper, KEY_SET_SEALING));
