import { UsageError } from '../usage-error.ts';

type Env = Record<string, string | undefined>;

/** As the servers accept it (packages/server-runtime, clientSecretPepperEnv). */
const MIN_LENGTH = 32;

/**
 * CLIENT_SECRET_PEPPER, which the commands that seal the token server's signing keys for
 * PostgreSQL need as the servers have it; unset, they read the pepper file of the data directory.
 * Never repeated in a message: it is a secret.
 */
export function clientSecretPepper(env: Env = process.env): string | undefined {
  const value = env.CLIENT_SECRET_PEPPER;
  if (value === undefined || value === '') return undefined;
  if (value.length < MIN_LENGTH) {
    throw new UsageError(
      `CLIENT_SECRET_PEPPER must be at least ${MIN_LENGTH} characters, as the servers require`,
    );
  }
  return value;
}
