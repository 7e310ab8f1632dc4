// catalog-sync: the scheduled incremental-sync runner (issue 6). Parses arguments, takes the lock, runs one
// pass into an NDJSON or SQLite file, and exits with a code that tells success, retryable failure and
// configuration error apart.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { SingleBar } from 'cli-progress';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createCatalogClient } from '../client.ts';
import { readCliEnvironment } from '../config/cli-env.ts';
import { AuthenticationError, CatalogError, ConfigurationError, ForbiddenError } from '../errors.ts';
import { createFilePacer } from '../http/file-pacer.ts';
import { createFileCheckpointStore } from '../sync/file-checkpoint-store.ts';
import { SyncAbortedError, sync } from '../sync/sync.ts';
import { EXIT } from './exit-codes.ts';
import { acquireLock, LockHeldError } from './lock.ts';
import { createLogger, type Logger } from './logger.ts';
import { openNdjsonSink } from './sinks/ndjson-sink.ts';
import type { ProductSink } from './sinks/sink.ts';
import { openSqliteSink, SqliteUnavailableError } from './sinks/sqlite-sink.ts';

interface CliOptions {
  baseUrl?: string;
  authUrl?: string;
  clientId?: string;
  clientSecretFile?: string;
  ca?: string;
  out: string;
  checkpoint: string;
  lock?: string;
  full: boolean;
  dryRun: boolean;
  pageSize: number;
  requestsPerSecond: number;
  requestsPer5Min: number;
  pacingFile?: string;
  logFormat?: 'json' | 'text';
  progress: boolean;
}

export interface CliIo {
  readonly argv: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
  readonly signal?: AbortSignal;
}

const integer = (min: number) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new InvalidArgumentError(`an integer ≥ ${min} is required`);
  return parsed;
};

function program(): Command {
  return new Command('catalog-sync')
    .description('Copy the product catalogue incrementally into an NDJSON or SQLite file (spec 4.4).')
    .option('--base-url <url>', 'https:// URL of the catalog API (env CATALOG_BASE_URL)')
    .option('--auth-url <url>', 'https:// URL of the token host (env CATALOG_AUTH_URL)')
    .option('--client-id <id>', 'M2M client ID (env CATALOG_CLIENT_ID)')
    .option('--client-secret-file <path>', 'file holding the client secret (else env CATALOG_CLIENT_SECRET)')
    .option('--ca <path>', 'PEM file of a private CA to trust')
    .requiredOption('--out <path>', 'output file: *.ndjson / *.jsonl, or *.sqlite / *.db')
    .requiredOption(
      '--checkpoint <path>',
      'JSON file holding the checkpoint and the cursor of a pass in progress',
    )
    .option('--lock <path>', 'lock file (default: <checkpoint>.lock)')
    .option('--full', 'ignore the stored checkpoint: a first pass from 1970-01-01T00:00:00Z', false)
    .option('--dry-run', 'read every page but write neither the output nor the checkpoint', false)
    .option('--page-size <n>', 'page size, at most 100', integer(1), 100)
    .option('--requests-per-second <n>', 'client-side pacing, 0 = off', integer(0), 45)
    .option('--requests-per-5-min <n>', 'client-side pacing per 5-minute window, 0 = off', integer(0), 1000)
    .addOption(
      new Option('--log-format <format>', 'default: json unless stderr is a terminal').choices([
        'json',
        'text',
      ]),
    )
    .option('--no-progress', 'no progress bar on a terminal')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
}

async function openSink(path: string): Promise<ProductSink> {
  const extension = extname(path).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return openNdjsonSink(path);
  if (extension === '.sqlite' || extension === '.db' || extension === '.sqlite3') return openSqliteSink(path);
  throw new ConfigurationError({
    message: `--out must end in .ndjson, .jsonl, .sqlite, .sqlite3 or .db: ${path}`,
  });
}

function exitCodeFor(error: unknown): number {
  if (error instanceof SyncAbortedError) return exitCodeFor(error.cause);
  if (error instanceof ConfigurationError || error instanceof SqliteUnavailableError)
    return EXIT.configuration;
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) return EXIT.configuration;
  if (error instanceof LockHeldError) return EXIT.retryable;
  if (error instanceof CatalogError && (error.retryable || error.name === 'AbortError'))
    return EXIT.retryable;
  return EXIT.failed;
}

/** Runs the command; resolves with the exit code (never calls process.exit). */
export async function runCli(io: CliIo): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  const stdout = io.stdout ?? process.stdout;
  const command = program();
  try {
    command.parse([...io.argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        stdout.write(command.helpInformation());
        return EXIT.ok;
      }
      stderr.write(`catalog-sync: ${error.message.replace(/^error: /u, '')}\n${command.helpInformation()}`);
      return EXIT.configuration;
    }
    throw error;
  }
  const options = command.opts<CliOptions>();
  const json = options.logFormat === undefined ? !stderr.isTTY : options.logFormat === 'json';
  const logger = createLogger({ json, stream: stderr });
  try {
    return await runSync(options, io, logger, stdout, stderr);
  } catch (error) {
    const code = exitCodeFor(error);
    const cause = error instanceof SyncAbortedError ? error.cause : error;
    logger.log('error', error instanceof Error ? error.message : String(error), {
      exitCode: code,
      ...(cause instanceof CatalogError
        ? { status: cause.status, code: cause.code, requestId: cause.requestId, attempts: cause.attempts }
        : {}),
      ...(error instanceof SyncAbortedError ? { report: error.report } : {}),
    });
    return code;
  }
}

async function runSync(
  options: CliOptions,
  io: CliIo,
  logger: Logger,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  const env = readCliEnvironment(io.env);
  const clientSecret =
    options.clientSecretFile === undefined
      ? env.clientSecret
      : (
          await readFile(options.clientSecretFile, 'utf8').catch(() => {
            throw new ConfigurationError({
              message: `cannot read --client-secret-file ${options.clientSecretFile}`,
            });
          })
        ).trim();
  if (!clientSecret) {
    throw new ConfigurationError({
      message: 'no client secret: set CATALOG_CLIENT_SECRET or --client-secret-file',
    });
  }
  const ca =
    options.ca === undefined
      ? undefined
      : await readFile(options.ca, 'utf8').catch(() => {
          throw new ConfigurationError({ message: `cannot read --ca ${options.ca}` });
        });
  const client = createCatalogClient({
    baseUrl: options.baseUrl ?? env.baseUrl ?? '',
    authUrl: options.authUrl ?? env.authUrl ?? '',
    clientId: options.clientId ?? env.clientId ?? '',
    clientSecret,
    scopes: ['products.read'],
    ...(ca === undefined ? {} : { ca }),
    pacing:
      options.pacingFile === undefined
        ? { requestsPerSecond: options.requestsPerSecond, windowRequests: options.requestsPer5Min }
        : createFilePacer({
            path: options.pacingFile,
            requestsPerSecond: options.requestsPerSecond,
            windowRequests: options.requestsPer5Min,
          }),
    hooks: {
      onRetry: (event) =>
        logger.log('warn', 'retrying request', {
          attempt: event.attempt,
          delayMs: event.delayMs,
          error: event.error.message,
        }),
      onRateLimitWait: (event) => {
        if (event.waitedMs >= 1000) logger.log('debug', 'paced', { waitedMs: event.waitedMs });
      },
    },
  });
  const release = await acquireLock(options.lock ?? `${options.checkpoint}.lock`);
  const interrupted = new AbortController();
  const onSignal = () => interrupted.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const signal =
    io.signal === undefined ? interrupted.signal : AbortSignal.any([io.signal, interrupted.signal]);
  const bar =
    options.progress && stderr.isTTY
      ? new SingleBar({ stream: stderr, hideCursor: true, clearOnComplete: true })
      : undefined;
  let sink: ProductSink | undefined;
  try {
    sink = options.dryRun ? undefined : await openSink(options.out);
    logger.log('info', 'sync started', { out: options.out, full: options.full, dryRun: options.dryRun });
    bar?.start(0, 0);
    const target = sink;
    const report = await sync({
      client,
      checkpointStore: createFileCheckpointStore(options.checkpoint),
      upsert: (products) => target?.upsert(products),
      full: options.full,
      dryRun: options.dryRun,
      pageSize: options.pageSize,
      signal,
      onPage: ({ pages, products, total }) => {
        if (bar !== undefined) {
          bar.setTotal(Math.max(total ?? 0, products));
          bar.update(products);
        } else logger.log('debug', 'page', { pages, products });
      },
      onRetry: (event) =>
        logger.log('warn', 'page retry', {
          attempt: event.attempt,
          pageSize: event.pageSize,
          error: event.error.message,
        }),
    });
    // Every page was flushed to the output before its cursor was saved; compaction after the commit is safe.
    await sink?.finish();
    bar?.stop();
    logger.log('info', 'sync finished', { ...report });
    stdout.write(`${JSON.stringify(report)}\n`);
    return EXIT.ok;
  } finally {
    bar?.stop();
    await sink?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await release();
    await client.close();
  }
}
