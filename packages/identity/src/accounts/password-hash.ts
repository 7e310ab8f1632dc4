import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { DISABLED_PASSWORD_MARK, isAdminUserDisabled } from '@catalog/store';

// OWASP's scrypt parameters (N=2^15, r=8, p=1): about 32 MiB and tens of milliseconds per attempt.
const PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MAX_MEMORY = 64 * 1024 * 1024;
const SCHEME = 'scrypt';

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$key` with base64url salt and key: self-describing, so parameters can grow. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  return [SCHEME, PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export const isDisabledHash = (encoded: string) => isAdminUserDisabled({ passwordHash: encoded });

export const disabledHash = (encoded: string) =>
  isDisabledHash(encoded) ? encoded : `${DISABLED_PASSWORD_MARK}${encoded}`;

/** Used for unknown emails, so a miss costs the same time as a wrong password. */
const DUMMY_HASH = `${SCHEME}$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(SALT_BYTES).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;

/**
 * Whether `password` matches `encoded`; false for a disabled or malformed hash. Always runs one
 * scrypt derivation, whatever the outcome, so response time says nothing about the account.
 */
export async function verifyPassword(password: string, encoded: string | undefined): Promise<boolean> {
  const usable = encoded !== undefined && !isDisabledHash(encoded);
  const parts = (usable ? encoded : DUMMY_HASH).split('$');
  const [scheme, n, r, p, salt, key] = parts;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const wellFormed =
    parts.length === 6 &&
    scheme === SCHEME &&
    Number.isInteger(params.N) &&
    Number.isInteger(params.r) &&
    Number.isInteger(params.p) &&
    salt !== undefined &&
    key !== undefined;
  if (!wellFormed) {
    await derive(password, Buffer.alloc(SALT_BYTES), PARAMS);
    return false;
  }
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), params);
  return usable && expected.length === actual.length && timingSafeEqual(expected, actual);
}
