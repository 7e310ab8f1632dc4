import { join } from 'node:path';
import { z } from 'zod';

/**
 * `active` signs every token; `staged` is published but does not sign yet (rotation step 1);
 * `retired` signed earlier tokens and stays published until they have all expired.
 */
export type SigningKeyStatus = 'active' | 'staged' | 'retired';

const privateEcJwk = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().min(1),
  y: z.string().min(1),
  d: z.string().min(1),
});
export type PrivateEcJwk = z.output<typeof privateEcJwk>;

const signingKey = z.object({
  kid: z.string().min(1),
  status: z.enum(['active', 'staged', 'retired']),
  createdAt: z.iso.datetime(),
  activatedAt: z.iso.datetime().optional(),
  retiredAt: z.iso.datetime().optional(),
  privateJwk: privateEcJwk,
});
export type SigningKey = z.output<typeof signingKey>;

export const signingKeySetSchema = z
  .object({ format: z.literal(1), keys: z.array(signingKey) })
  .refine((set) => set.keys.filter((key) => key.status === 'active').length === 1, {
    message: 'exactly one key must be active',
  })
  .refine((set) => set.keys.filter((key) => key.status === 'staged').length <= 1, {
    message: 'at most one key may be staged',
  })
  .refine((set) => new Set(set.keys.map((key) => key.kid)).size === set.keys.length, {
    message: 'key ids must be unique',
  });
export type SigningKeySet = z.output<typeof signingKeySetSchema>;

export const signingKeysFile = (dataDir: string) => join(dataDir, 'keys', 'signing-keys.json');
