import { join } from 'node:path';
import { z } from 'zod';
import { secretVariable } from '../config/secret-variable.ts';
import { loadDataDirSecret } from '../secrets/data-dir-secret.ts';

const PEPPER_BYTES = 32;
const MIN_OVERRIDE_LENGTH = 32;

/** The variable both servers accept to supply the pepper instead of the file in DATA_DIR. */
export const clientSecretPepperEnv = z.object({
  CLIENT_SECRET_PEPPER: secretVariable(
    z
      .string()
      .min(MIN_OVERRIDE_LENGTH, `must be at least ${MIN_OVERRIDE_LENGTH} characters (use 32 random bytes)`),
  ).optional(),
});

export const clientSecretPepperFile = (dataDir: string) => join(dataDir, 'secrets', 'client-secret-pepper');

/**
 * The pepper that keys client-secret hashes: CLIENT_SECRET_PEPPER when set, else the file under
 * DATA_DIR, created on first use (data-dir-secret.ts).
 */
export async function loadClientSecretPepper(options: {
  readonly dataDir: string;
  readonly override?: string | undefined;
}): Promise<Buffer> {
  if (options.override !== undefined) return Buffer.from(options.override, 'utf8');
  return loadDataDirSecret({
    file: clientSecretPepperFile(options.dataDir),
    bytes: PEPPER_BYTES,
    dependents: 'every stored client secret and the clients that use them',
  });
}
