import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { PrivateEcJwk, SigningKey, SigningKeyStatus } from './signing-key-set.ts';

/** A new ES256 (P-256) key; its id is the RFC 7638 thumbprint, unique by construction. */
export async function generateSigningKey(status: SigningKeyStatus, now: Date): Promise<SigningKey> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as PrivateEcJwk;
  const privateJwk: PrivateEcJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d };
  const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, 'sha256');
  const at = now.toISOString();
  return {
    kid,
    status,
    createdAt: at,
    ...(status === 'active' ? { activatedAt: at } : {}),
    privateJwk,
  };
}
