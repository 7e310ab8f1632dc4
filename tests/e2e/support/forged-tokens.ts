// Tokens an attacker or a confused integrator might send: signed with the stack's own signing key
// (read where the token servers read it, as only a test can) but with a claim or header wrong, signed with another key,
// unsigned (`alg: none`), or signed with HMAC over the public key (algorithm confusion).
import {
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign,
} from 'node:crypto';
import { openDeploymentSigningKeys } from '@catalog/engines';
import type { StorageLocation } from '@catalog/store';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export interface TokenForge {
  /** The issuer the API trusts (the auth server's URL). */
  readonly issuer: string;
  /** ES256 over `header.payload` with the stack's active key (or `key`), `kid` set unless given. */
  es256(payload: Record<string, unknown>, header?: Record<string, unknown>, key?: KeyObject): string;
  /** An access token as the token server issues one, with `overrides` applied (undefined removes a claim). */
  accessToken(
    claims: { clientId: string; scope: unknown } & Record<string, unknown>,
    header?: Record<string, unknown>,
  ): string;
  /** An ID token of the admin client, as the login flow issues one. */
  idToken(claims: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** The same claims signed with a freshly generated key that the token server never published. */
  foreignKey(payload: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** `alg: none`, empty signature. */
  unsigned(payload: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** HS256 keyed with the public JWK's text: the classic algorithm-confusion attack. */
  hmacWithPublicKey(payload: Record<string, unknown>): string;
}

const withoutUndefined = (claims: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));

export async function tokenForge(
  location: StorageLocation,
  issuer: string,
  adminClientId: string,
): Promise<TokenForge> {
  // Where the token servers read them: DATA_DIR's file, or the set sealed in PostgreSQL.
  const keys = await openDeploymentSigningKeys({ storage: location, clientSecretPepper: undefined });
  const stored = await keys.read().finally(() => keys.close());
  if (stored === undefined) throw new Error('the stack has no signing keys yet');
  const file = stored.set;
  const active = file.keys.find((key) => key.status === 'active');
  if (active === undefined) throw new Error('no active signing key in the stack');
  const stackKey = createPrivateKey({ key: active.privateJwk, format: 'jwk' });
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const { d: _private, ...publicJwk } = active.privateJwk;

  const now = () => Math.floor(Date.now() / 1000);
  const es256: TokenForge['es256'] = (payload, header = {}, key = stackKey) => {
    const head = b64url(JSON.stringify({ alg: 'ES256', kid: active.kid, ...header }));
    const body = b64url(JSON.stringify(withoutUndefined(payload)));
    const signature = sign('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' });
    return `${head}.${body}.${b64url(signature)}`;
  };

  return {
    issuer,
    es256,
    accessToken({ clientId, scope, ...overrides }, header = {}) {
      return es256(
        {
          iss: issuer,
          sub: clientId,
          client_id: clientId,
          aud: 'crm-api',
          scope,
          iat: now(),
          exp: now() + 600,
          jti: randomUUID(),
          ...overrides,
        },
        { typ: 'at+jwt', ...header },
      );
    },
    idToken(claims, header = {}) {
      return es256(
        {
          iss: issuer,
          sub: 'forged-admin',
          aud: adminClientId,
          email: 'forged@example.test',
          groups: ['admin'],
          iat: now(),
          exp: now() + 600,
          ...claims,
        },
        header,
      );
    },
    foreignKey: (payload, header = {}) => es256(payload, header, otherKey),
    unsigned(payload, header = {}) {
      const head = b64url(JSON.stringify({ alg: 'none', typ: 'at+jwt', ...header }));
      return `${head}.${b64url(JSON.stringify(withoutUndefined(payload)))}.`;
    },
    hmacWithPublicKey(payload) {
      const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'at+jwt', kid: active.kid }));
      const body = b64url(JSON.stringify(withoutUndefined(payload)));
      const mac = createHmac('sha256', JSON.stringify(publicJwk)).update(`${head}.${body}`).digest();
      return `${head}.${body}.${b64url(mac)}`;
    },
  };
}
