// catalog-sync: the scheduled incremental-sync runner (issue 6). Parses arguments, takes the locks, runs
// one pass into an NDJSON or SQLite file, makes that file final, commits the checkpoint, and exits with a
// code that tells success, retryable failure and configuration error apart.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createCatalogClient } from '../client.ts';
import { readCliEnvironment } from '../config/cli-env.ts';
import { SEARCH_SIZE_MAX } from '../contract-values.ts';
import {
  AuthenticationError,
  CatalogError,
  ConfigurationError,
  ForbiddenError,
  TlsCertificateError,
} from '../errors.ts';
import { createFilePacer } from '../http/file-pacer.ts';
import { childTraceparent, traceOf } from '../http/trace-context.ts';
import type { CheckpointStore } from '../sync/checkpoint-store.ts';
import { createFileCheckpointStore } from '../sync/file-checkpoint-store.ts';
import { SyncAbortedError, sync } from '../sync/sync.ts';
import { EXIT } from './exit-codes.ts';
import { acquireLock, LockHeldError } from './lock.ts';
import { createLogger, LEVELS, type Level, type Logger } from './logger.ts';
import { requireWritableDirectory } from './paths.ts';
import { createProgress } from './progress.ts';
import { openNdjsonSink } from './sinks/ndjson-sink.ts';
import type { ProductSink } from './sinks/sink.ts';
import { openSqliteSink, SqliteUnavailableError } from './sinks/sqlite-sink.ts';

// Two directories deep both in src/cli and in dist/cli.
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

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
  logLevel: Level;
  quiet: boolean;
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

const EXIT_CODES_HELP = `
Exit codes:
  ${EXIT.ok}   the pass completed, the output is final and the checkpoint was committed
  ${EXIT.failed}   a failure running again will not fix by itself (a 4xx other than 429, a bad line in
      the output file, a write error); nothing was committed
  ${EXIT.retryable}  try again later: network failure, 429, 5xx, time-out, interrupted, or another run holds
      a lock; nothing was committed
  ${EXIT.configuration}  configuration error: bad arguments, missing secret or directory, http:// URL, a server
      certificate that does not verify (--ca), refused credentials or scope (401/403), no node:sqlite`;

function program(): Command {
  return new Command('catalog-sync')
    .description('Copy the product catalogue incrementally into an NDJSON or SQLite file (spec 4.4).')
    .version(version, '--version', 'print the version and exit')
    .option('--base-url <url>', 'https:// URL of the catalog API (env CATALOG_BASE_URL)')
    .option('--auth-url <url>', 'https:// URL of the token host (env CATALOG_AUTH_URL)')
    .option('--client-id <id>', 'M2M client ID (env CATALOG_CLIENT_ID)')
    .option('--client-secret-file <path>', 'file holding the client secret (else env CATALOG_CLIENT_SECRET)')
    .option('--ca <path>', 'PEM file of a private CA to trust')
    .requiredOption('--out <path>', 'output file: *.ndjson / *.jsonl, or *.sqlite / *.sqlite3 / *.db')
    .requiredOption(
      '--checkpoint <path>',
      'JSON file holding the checkpoint and the cursor of a pass in progress',
    )
    .option(
      '--lock <path>',
      'lock file of the checkpoint (default: <checkpoint>.lock; <out>.lock is taken too)',
    )
    .option('--full', 'ignore the stored checkpoint: a first pass from 1970-01-01T00:00:00Z', false)
    .option('--dry-run', 'read every page but write neither the output nor the checkpoint', false)
    .option('--page-size <n>', `page size, at most ${SEARCH_SIZE_MAX}`, integer(1), SEARCH_SIZE_MAX)
    .option('--requests-per-second <n>', 'client-side pacing, 0 = off', integer(0), 45)
    .option('--requests-per-5-min <n>', 'client-side pacing per 5-minute window, 0 = off', integer(0), 1000)
    .option(
      '--pacing-file <path>',
      'share the pacing with every process on this machine (one source IP) naming the same file',
    )
    .addOption(
      new Option('--log-format <format>', 'default: json unless stderr is a terminal').choices([
        'json',
        'text',
      ]),
    )
    .addOption(new Option('--log-level <level>', 'lowest level logged').choices(LEVELS).default('info'))
    .option('--quiet', 'log warnings and errors only (same as --log-level warn)', false)
    .option('--no-progress', 'no progress bar on a terminal')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
}

async function openSink(path: string, logger: Logger): Promise<ProductSink> {
  const extension = extname(path).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') {
    return openNdjsonSink(path, {
      onRepair: (event) =>
        logger.log('warn', 'dropped a partial last line left by an interrupted run', event),
    });
  }
  if (extension === '.sqlite' || extension === '.db' || extension === '.sqlite3') return openSqliteSink(path);
  throw new ConfigurationError({
    message: `--out must end in .ndjson, .jsonl, .sqlite, .sqlite3 or .db: ${path}`,
  });
}

/** The output could not be made final: nothing was committed. */
class OutputNotFinalError extends Error {
  override readonly name = 'OutputNotFinalError';
}

function exitCodeFor(error: unknown): number {
  if (error instanceof SyncAbortedError) return exitCodeFor(error.cause);
  if (error instanceof ConfigurationError || error instanceof SqliteUnavailableError)
    return EXIT.configuration;
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) return EXIT.configuration;
  if (error instanceof TlsCertificateError) return EXIT.configuration;
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
      if (error.code === 'commander.version') {
        stdout.write(`${version}\n`);
        return EXIT.ok;
      }
      if (error.code === 'commander.helpDisplayed') {
        stdout.write(`${command.helpInformation()}${EXIT_CODES_HELP}\n`);
        return EXIT.ok;
      }
      stderr.write(`catalog-sync: ${error.message.replace(/^error: /u, '')}\n${command.helpInformation()}`);
      return EXIT.configuration;
    }
    throw error;
  }
  const options = command.opts<CliOptions>();
  const json = options.logFormat === undefined ? !stderr.isTTY : options.logFormat === 'json';
  const logger = createLogger({ json, stream: stderr, level: options.quiet ? 'warn' : options.logLevel });
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

async function readSecret(options: CliOptions, fromEnv: string | undefined): Promise<string> {
  const secret =
    options.clientSecretFile === undefined
      ? fromEnv
      : (
          await readFile(options.clientSecretFile, 'utf8').catch(() => {
            throw new ConfigurationError({
              message: `cannot read --client-secret-file ${options.clientSecretFile}`,
            });
          })
        ).trim();
  if (!secret) {
    throw new ConfigurationError({
      message: 'no client secret: set CATALOG_CLIENT_SECRET or --client-secret-file',
    });
  }
  return secret;
}

/** Commits only once the output is final: a run that cannot make it consistent commits nothing. */
function committingAfter(
  store: CheckpointStore,
  sink: ProductSink,
  out: string,
  distinctIds: () => number,
): CheckpointStore {
  return {
    ...store,
    async commit(checkpoint) {
      try {
        await sink.finish({ distinctIds: distinctIds() });
      } catch (cause) {
        throw new OutputNotFinalError(
          `${cause instanceof Error ? cause.message : String(cause)} (the output ${out} could not be made final; the checkpoint was not committed)`,
          { cause },
        );
      }
      await store.commit(checkpoint);
    },
  };
}

async function runSync(
  options: CliOptions,
  io: CliIo,
  logger: Logger,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  const env = readCliEnvironment(io.env);
  const clientSecret = await readSecret(options, env.clientSecret);
  const ca =
    options.ca === undefined
      ? undefined
      : await readFile(options.ca, 'utf8').catch(() => {
          throw new ConfigurationError({ message: `cannot read --ca ${options.ca}` });
        });
  const checkpointLock = options.lock ?? `${options.checkpoint}.lock`;
  await requireWritableDirectory('--checkpoint', options.checkpoint);
  await requireWritableDirectory('--lock', checkpointLock);
  if (!options.dryRun) await requireWritableDirectory('--out', options.out);
  if (options.pacingFile !== undefined) await requireWritableDirectory('--pacing-file', options.pacingFile);
  // The file itself is created or repaired only when the first page arrives (credentials proven).
  const sink = options.dryRun ? undefined : await openSink(options.out, logger);
  if (options.pageSize > SEARCH_SIZE_MAX) {
    logger.log(
      'warn',
      `--page-size ${options.pageSize} is above the service's maximum: using ${SEARCH_SIZE_MAX}`,
    );
  }

  const interrupted = new AbortController();
  const client = createCatalogClient({
    baseUrl: options.baseUrl ?? env.baseUrl ?? '',
    authUrl: options.authUrl ?? env.authUrl ?? '',
    clientId: options.clientId ?? env.clientId ?? '',
    clientSecret,
    scopes: ['products.read'],
    userAgent: `catalog-sync/${version}`,
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
      onRetry: (event) => {
        logger.log('warn', 'retrying request', {
          attempt: event.attempt,
          delayMs: event.delayMs,
          error: event.error.message,
        });
      },
      onRateLimitWait: (event) => {
        if (event.waitedMs >= 1000) logger.log('debug', 'paced', { waitedMs: event.waitedMs });
      },
    },
  });
  const releases: (() => Promise<void>)[] = [];
  const onSignal = () => interrupted.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const signal =
    io.signal === undefined ? interrupted.signal : AbortSignal.any([io.signal, interrupted.signal]);
  let progress: ReturnType<typeof createProgress> | undefined;
  try {
    releases.push(await acquireLock(checkpointLock));
    // Two runs with different checkpoints must not write one output either.
    if (!options.dryRun) releases.push(await acquireLock(`${options.out}.lock`));
    const store = createFileCheckpointStore(options.checkpoint);
    const state = options.full ? { checkpoint: null, progress: null } : await store.load();
    const resumed = state.progress !== null;
    // The run's trace id is logged first, so a run that never finishes can be found in the servers' logs.
    const trace = traceOf(undefined);
    logger.log('info', 'sync started', {
      out: options.out,
      full: state.checkpoint === null,
      resumed,
      dryRun: options.dryRun,
      traceId: trace.traceId,
    });
    progress = options.progress && stderr.isTTY ? createProgress(stderr, { resumed }) : undefined;
    const bar = progress;
    let distinctIds = 0;
    let report: Awaited<ReturnType<typeof sync>>;
    try {
      report = await sync({
        client,
        checkpointStore:
          sink === undefined ? store : committingAfter(store, sink, options.out, () => distinctIds),
        upsert: (products) => sink?.upsert(products),
        // The sinks buffer pages; a cursor is saved (at most once a second) only after they flushed.
        ...(sink === undefined ? {} : { flush: () => sink.flush() }),
        full: options.full,
        dryRun: options.dryRun,
        pageSize: options.pageSize,
        traceparent: childTraceparent(trace),
        signal,
        onPage: (event) => {
          distinctIds = event.products;
          if (bar !== undefined) bar.page(event);
          else logger.log('debug', 'page', { pages: event.pages, products: event.products });
        },
        onRetry: (event) => {
          logger.log('warn', 'page retry', {
            attempt: event.attempt,
            pageSize: event.pageSize,
            error: event.error.message,
          });
        },
      });
    } catch (error) {
      // The SDK never retries a certificate that does not verify; on the command line the CA is --ca.
      const certificate = error instanceof SyncAbortedError ? error.cause : error;
      if (certificate instanceof TlsCertificateError) {
        throw new ConfigurationError({
          message: `the server's TLS certificate does not verify (${certificate.code}): pass the CA that signed it with --ca`,
          cause: certificate,
        });
      }
      throw error;
    }
    progress?.stop();
    logger.log('info', 'sync finished', { ...report });
    stdout.write(`${JSON.stringify(report)}\n`);
    return EXIT.ok;
  } finally {
    progress?.stop();
    await sink?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const release of releases.reverse()) await release();
    await client.close();
  }
}
