import { existsSync } from 'node:fs';
import { clientSecretPepperFile, loadClientSecretPepper } from '@catalog/server-runtime';
import type { SealSigningKeys } from '@catalog/store';
import { FileSigningKeyStore } from '../adapters/file-signing-keys/file-signing-key-store.ts';
import { sealKeySet } from '../adapters/shared-signing-keys/seal-key-set.ts';
import { AdminOperationError } from '../errors/admin-errors.ts';
import { keySetSealingKey } from '../secrets/pepper-derived-keys.ts';
import { signingKeysFile } from './signing-key-set.ts';

/** The pepper of the deployment whose DATA_DIR or variable is given. */
export interface DeploymentPepper {
  readonly dataDir: string;
  /** CLIENT_SECRET_PEPPER as the operator's environment gives it. */
  readonly clientSecretPepper: string | undefined;
}

/**
 * The pepper that seals the signing keys: CLIENT_SECRET_PEPPER, else DATA_DIR's pepper file, which
 * must exist already. The token servers create it on first start; one created here would be
 * another pepper, sealing keys no token server can open.
 */
export async function existingDeploymentPepper({
  dataDir,
  clientSecretPepper,
}: DeploymentPepper): Promise<Uint8Array> {
  const file = clientSecretPepperFile(dataDir);
  if (clientSecretPepper === undefined && !existsSync(file)) {
    throw new AdminOperationError(
      `no client-secret pepper: the signing keys in PostgreSQL are sealed with it; set CLIENT_SECRET_PEPPER, or DATA_DIR to a directory holding secrets/client-secret-pepper, as the token servers have them (looked for ${file})`,
    );
  }
  return loadClientSecretPepper({ dataDir, override: clientSecretPepper });
}

/**
 * `pnpm catalog copy`: the embedded deployment's signing keys (its file under `dataDir`), sealed
 * for the PostgreSQL deployment as its token servers will open them, with the pepper the copy tells
 * the operator to give them. Undefined when the source has no key file (no token server started on
 * it): the first token server on PostgreSQL then creates the set.
 */
export async function signingKeysForCopy(options: DeploymentPepper): Promise<SealSigningKeys | undefined> {
  const stored = await new FileSigningKeyStore(signingKeysFile(options.dataDir)).read();
  if (stored === undefined) return undefined;
  const key = keySetSealingKey(await existingDeploymentPepper(options));
  return (version) => sealKeySet(stored.set, key, version);
}
