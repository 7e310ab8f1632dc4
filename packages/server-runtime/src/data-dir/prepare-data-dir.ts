import { chmod, mkdir, stat } from 'node:fs/promises';
import type { Logger } from 'pino';

const OWNER_ONLY = 0o700;
const GROUP_OR_OTHER = 0o077;

/**
 * DATA_DIR holds the database (password and secret hashes), the pepper and private keys: it is
 * created readable by its owner only. An existing directory is left as the operator set it, with a
 * warning when other users can reach into it.
 */
export async function prepareDataDir(dataDir: string, logger: Logger): Promise<void> {
  const created = await mkdir(dataDir, { recursive: true, mode: OWNER_ONLY });
  // mkdir's mode is filtered by the umask; chmod is not, so the new directory is 0700 whatever it is.
  if (created !== undefined) {
    await chmod(dataDir, OWNER_ONLY);
    return;
  }
  const { mode } = await stat(dataDir);
  if ((mode & GROUP_OR_OTHER) !== 0) {
    logger.warn(
      { dataDir, mode: `0${(mode & 0o777).toString(8)}` },
      `DATA_DIR ${dataDir} is accessible to other users; it holds the database and keys: run chmod 700 ${dataDir}`,
    );
  }
}
