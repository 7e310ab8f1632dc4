// The secrets every instance of the cluster shares (instance-env.mts): from the environment when
// set, else created once into the cluster's directory (mode 0600) and read from there on every later
// start, so that client secrets and syncTokens outlive a restart of the cluster.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ClusterSecrets {
  readonly clientSecretPepper: string;
  readonly syncTokenSecret: string;
}

const secret = () => randomBytes(32).toString('base64url');

export async function loadClusterSecrets(
  clusterDir: string,
  configured: Partial<ClusterSecrets>,
): Promise<ClusterSecrets> {
  const { clientSecretPepper, syncTokenSecret } = configured;
  if (clientSecretPepper !== undefined && syncTokenSecret !== undefined)
    return { clientSecretPepper, syncTokenSecret };
  const file = join(clusterDir, 'cluster-secrets.json');
  let kept: ClusterSecrets;
  try {
    kept = JSON.parse(await readFile(file, 'utf8')) as ClusterSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    kept = { clientSecretPepper: secret(), syncTokenSecret: secret() };
    // 'wx': a second start racing this one fails here rather than replace the first one's secrets.
    await writeFile(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  }
  return {
    clientSecretPepper: clientSecretPepper ?? kept.clientSecretPepper,
    syncTokenSecret: syncTokenSecret ?? kept.syncTokenSecret,
  };
}
