import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AdminOperationError, SigningKeySetError, signingKeysForCopy } from '@catalog/identity';
import {
  CopyRefusedError,
  type CopyReport,
  catalogDatabasePath,
  copySqliteToPostgres,
  SchemaTooNewError,
} from '@catalog/store';
import { clientSecretPepper } from '../config/client-secret-pepper.ts';
import { resolveStorage } from '../config/storage.ts';
import type { Output } from '../output.ts';
import { progressBar } from '../progress-bar.ts';
import { UsageError } from '../usage-error.ts';

export interface CopyCommandOptions {
  /** `sqlite:PATH`: a catalog.sqlite file or the data directory holding it. */
  from: string;
  /** The target's postgres:// URL; DATABASE_URL when absent. */
  to: string | undefined;
}

interface CopySource {
  databasePath: string;
  /** Where the deployment's pepper, signing keys and sync-token key live beside its database. */
  dataDir: string;
}

const SQLITE_PREFIX = 'sqlite:';

function copySource(from: string): CopySource {
  if (!from.startsWith(SQLITE_PREFIX) || from.length === SQLITE_PREFIX.length) {
    throw new UsageError(
      '--from must be sqlite:PATH, a catalog.sqlite file or the data directory holding it',
    );
  }
  const path = resolve(from.slice(SQLITE_PREFIX.length));
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) throw new UsageError(`no SQLite catalogue at ${path}`);
  if (!stats.isDirectory()) return { databasePath: path, dataDir: dirname(path) };
  const databasePath = catalogDatabasePath(path);
  if (statSync(databasePath, { throwIfNoEntry: false }) === undefined) {
    throw new UsageError(`no SQLite catalogue at ${databasePath}`);
  }
  return { databasePath, dataDir: path };
}

/** The target URL, checked; never repeated in a message: it may carry a password. */
function targetUrl(to: string | undefined): string {
  const configured = resolveStorage(undefined);
  const value = to ?? (configured.engine === 'postgres' ? configured.url : undefined);
  if (value === undefined) throw new UsageError('--to postgres://… (or DATABASE_URL) names the target');
  if (/^postgres(ql)?:\/\//.test(value) && URL.canParse(value) && new URL(value).hostname !== '')
    return value;
  throw new UsageError('--to must be a postgres://user:password@host:port/database URL');
}

/** The target for messages: where it is, without the credentials. */
function describeTarget(value: string): string {
  const url = new URL(value);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

function summary(report: CopyReport): string[] {
  const width = Math.max(...report.tables.map(({ table }) => table.length));
  const rowsWidth = Math.max(4, ...report.tables.map(({ rows }) => String(rows).length));
  return [
    `  ${'table'.padEnd(width)}  ${'rows'.padStart(rowsWidth)}`,
    ...report.tables.map(
      ({ table, rows }) => `  ${table.padEnd(width)}  ${String(rows).padStart(rowsWidth)}`,
    ),
  ];
}

/** Where the token signing keys went: into the database, or nowhere because the source had none. */
function signingKeysLine(dataDir: string, copied: boolean): string {
  return copied
    ? "token signing keys: in the database now, sealed with this deployment's client-secret pepper"
    : `token signing keys: none under ${join(dataDir, 'keys')}/; the first token server on PostgreSQL creates them`;
}

/**
 * Secrets beside the database that the copy does not move: client-secret hashes are keyed by the
 * pepper, which also seals the signing keys copied into the database, and syncTokens by the
 * sync-token key. Servers without the same ones reject every client secret, cannot open the keys
 * (so do not start) and restart every walk in progress.
 */
function secretsReminder(dataDir: string): string[] {
  return [
    "Not in the database, so not copied: the PostgreSQL deployment's servers need this deployment's",
    `  client-secret pepper: ${join(dataDir, 'secrets', 'client-secret-pepper')} (or the same CLIENT_SECRET_PEPPER)`,
    `  sync-token key:       ${join(dataDir, 'secrets', 'sync-token-secret')} (or the same SYNC_TOKEN_SECRET)`,
    'Give them these files (or the same variables), or every client secret stops working and the token servers cannot open the signing keys.',
  ];
}

/** Returns whether the catalogue was copied. */
export async function runCopy(options: CopyCommandOptions, output: Output): Promise<boolean> {
  const source = copySource(options.from);
  const url = targetUrl(options.to);
  const target = describeTarget(url);
  const pepper = clientSecretPepper();
  const bar = progressBar(output, 'copy');
  try {
    // Sealed before the copy starts: a source whose keys cannot be sealed is refused, nothing written.
    const signingKeys = await signingKeysForCopy({ dataDir: source.dataDir, clientSecretPepper: pepper });
    const report = await copySqliteToPostgres({
      sourcePath: source.databasePath,
      target: { url },
      ...(signingKeys === undefined ? {} : { signingKeys }),
      onProgress: ({ step, copied, total }) => bar.update(copied, total, `${step} (${copied}/${total} rows)`),
    });
    bar.stop();
    const seconds = (report.durationMs / 1000).toFixed(1);
    output.out(
      `copied ${source.databasePath} to ${target} in ${seconds} s, every table's rows counted on both sides:`,
    );
    for (const line of summary(report)) output.out(line);
    output.out('(change_feed: written anew, one entry per channel, brand, product and client)');
    output.out(signingKeysLine(source.dataDir, report.signingKeysCopied));
    for (const line of secretsReminder(source.dataDir)) output.out(line);
    return true;
  } catch (error) {
    bar.stop();
    const message = error instanceof Error ? error.message : String(error);
    if (
      error instanceof CopyRefusedError ||
      error instanceof SchemaTooNewError ||
      error instanceof AdminOperationError ||
      error instanceof SigningKeySetError
    ) {
      output.err(`copy refused: ${message}`);
    } else {
      output.err(`copy failed: ${message}`);
      output.err(`rolled back: ${target} holds none of the copied records`);
    }
    return false;
  }
}
