// Options shared by both clients, validated once at construction (unknown keys and http:// URLs throw).
import { Agent, type Dispatcher } from 'undici';
import { ConfigurationError } from '../errors.ts';
import type { ClientHooks } from './hooks.ts';
import { createPacer, noPacing, type PacerOptions, type RequestPacer } from './pacer.ts';
import { DEFAULT_RETRY, type RetryPolicy, type TransportSettings } from './transport.ts';

export interface TransportOptions {
  /** PEM certificate(s) of a private CA to trust (e.g. DATA_DIR/tls/ca.pem). Ignored when `dispatcher` is given. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** An undici Dispatcher (Agent, ProxyAgent, Pool…) to send every request through. */
  readonly dispatcher?: Dispatcher;
  /** The one retry policy, over DEFAULT_RETRY; `sync` follows it for each page (spec 4.4 step 8, 7.4). */
  readonly retry?: Partial<RetryPolicy>;
  /** Each attempt's timeout in ms (default 30 000; 0 = none). */
  readonly attemptTimeoutMs?: number;
  /** Timeout over all attempts and backoff sleeps in ms (default 120 000; 0 = none). */
  readonly totalTimeoutMs?: number;
  /** Client-side pacing: options of the built-in pacer, a shared pacer, or false for none. */
  readonly pacing?: PacerOptions | RequestPacer | false;
  readonly hooks?: ClientHooks;
  readonly userAgent?: string;
}

const TRANSPORT_KEYS = [
  'ca',
  'dispatcher',
  'retry',
  'attemptTimeoutMs',
  'totalTimeoutMs',
  'pacing',
  'hooks',
  'userAgent',
] as const;

export function rejectUnknownKeys(options: object, known: readonly string[]): void {
  const allowed = new Set([...known, ...TRANSPORT_KEYS]);
  const unknown = Object.keys(options).filter((key) => !allowed.has(key));
  if (unknown.length > 0)
    throw new ConfigurationError({ message: `Unknown option(s): ${unknown.join(', ')}` });
}

/** Parses an https:// URL; anything else is a configuration error (spec 5.10). */
export function httpsUrl(value: string | URL | undefined, name: string): URL {
  if (value === undefined || value === '') throw new ConfigurationError({ message: `${name} is required` });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError({ message: `${name} is not a URL: ${String(value)}` });
  }
  if (url.protocol !== 'https:') {
    throw new ConfigurationError({
      message: `${name} must use https:// (plain HTTP is not supported): ${url.href}`,
    });
  }
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

function isPacer(value: unknown): value is RequestPacer {
  return typeof value === 'object' && value !== null && typeof (value as RequestPacer).acquire === 'function';
}

export function transportSettings(options: TransportOptions): {
  settings: TransportSettings;
  owned?: Dispatcher;
} {
  let owned: Agent | undefined;
  let dispatcher = options.dispatcher;
  if (dispatcher === undefined) {
    const ca: string | Buffer | (string | Buffer)[] | undefined =
      typeof options.ca === 'string' || Buffer.isBuffer(options.ca) || options.ca === undefined
        ? options.ca
        : [...options.ca];
    owned = new Agent({ connect: ca === undefined ? {} : { ca }, keepAliveTimeout: 10_000 });
    dispatcher = owned;
  }
  const pacing = options.pacing;
  const pacer = pacing === false ? noPacing : isPacer(pacing) ? pacing : createPacer(pacing ?? {});
  const settings: TransportSettings = {
    dispatcher,
    retry: Object.freeze({ ...DEFAULT_RETRY, ...options.retry }),
    attemptTimeoutMs: options.attemptTimeoutMs ?? 30_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 120_000,
    hooks: options.hooks ?? {},
    pacer,
    userAgent: options.userAgent ?? '@catalog/sdk',
  };
  return owned === undefined ? { settings } : { settings, owned };
}
