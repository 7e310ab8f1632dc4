import { readFile } from 'node:fs/promises';
import type { TransportConfig } from '../config/common-env.ts';
import { ensureLocalTls, type TlsMaterial } from './local-ca.ts';

/** The TLS material a server listens with, or null when a proxy terminates TLS in front of it. */
export async function resolveTls(transport: TransportConfig): Promise<TlsMaterial | null> {
  switch (transport.mode) {
    case 'behind-proxy':
      return null;
    case 'tls-files':
      return {
        cert: await readFile(transport.certFile, 'utf8'),
        key: await readFile(transport.keyFile, 'utf8'),
      };
    case 'local-ca':
      return ensureLocalTls(transport.dataDir);
  }
}
