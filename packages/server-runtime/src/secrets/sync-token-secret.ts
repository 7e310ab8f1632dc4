import { join } from 'node:path';
import { z } from 'zod';
import { secretVariable } from '../config/secret-variable.ts';
import { loadDataDirSecret } from './data-dir-secret.ts';

const SECRET_BYTES = 32;
const MIN_OVERRIDE_LENGTH = 32;

/**
 * The variable the API accepts to supply the key that signs syncTokens instead of the file in
 * DATA_DIR. Several API instances behind one balancer must share it: a walk's pages may be served
 * by any of them.
 */
export const syncTokenSecretEnv = z.object({
  SYNC_TOKEN_SECRET: secretVariable(
    z
      .string()
      .min(MIN_OVERRIDE_LENGTH, `must be at least ${MIN_OVERRIDE_LENGTH} characters (use 32 random bytes)`),
  ).optional(),
});

export const syncTokenSecretFile = (dataDir: string) => join(dataDir, 'secrets', 'sync-token-secret');

/** SYNC_TOKEN_SECRET when set, else the file under DATA_DIR, created on first use. */
export async function loadSyncTokenSecret(options: {
  readonly dataDir: string;
  readonly override?: string | undefined;
}): Promise<Buffer> {
  if (options.override !== undefined) return Buffer.from(options.override, 'utf8');
  return loadDataDirSecret({
    file: syncTokenSecretFile(options.dataDir),
    bytes: SECRET_BYTES,
    dependents: 'the syncTokens of walks in progress',
  });
}
