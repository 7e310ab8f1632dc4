import { resolve } from 'node:path';
import { z } from 'zod';
import { type ConnectionTimeouts, DEFAULT_CONNECTION_TIMEOUTS } from '../http/connection-timeouts.ts';
import { DEFAULT_TRUSTED_PROXIES, proxyAddressProblem } from '../http/trusted-proxies.ts';
import { secretVariable } from './secret-variable.ts';

/** Environment variables every server reads, with their validation rules. */

export const portSchema = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be between 0 and 65535`)
    .max(65535, `${name} must be between 0 and 65535`)
    .default(fallback);

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true');

const milliseconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100 (ms)')
    .max(3_600_000, 'must be at most 3600000 (one hour)')
    .default(fallback);

/** How long a stopping server keeps serving after /ready turned 503, so a balancer stops sending first. */
const drainMilliseconds = z.coerce
  .number({ error: 'must be a number of milliseconds' })
  .int('must be a whole number of milliseconds')
  .min(0, 'must be 0 (close at once) or more')
  .max(600_000, 'must be at most 600000 (ten minutes)')
  .default(5000);

/** The peers whose X-Forwarded-* headers are believed: comma-separated addresses and CIDR blocks. */
const trustedProxies = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()))
  .superRefine((entries, ctx) => {
    for (const entry of entries) {
      const problem = entry === '' ? 'has an empty entry' : proxyAddressProblem(entry);
      if (problem !== undefined)
        ctx.addIssue({ code: 'custom', message: `must list IP addresses or CIDR blocks: ${problem}` });
    }
  });

export const httpsUrl = z
  .url({ protocol: /^https$/, error: 'must be an absolute https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * A PostgreSQL connection URL. It may carry a password, so it is a secret variable: never printed,
 * even when invalid.
 */
export const databaseUrl = secretVariable(
  z.string().refine((value) => {
    if (!/^postgres(ql)?:\/\//.test(value)) return false;
    try {
      return new URL(value).hostname !== '';
    } catch {
      return false;
    }
  }, 'must be a postgres://user:password@host:port/database URL (unset: the embedded SQLite database in DATA_DIR)'),
);

/**
 * A Redis connection URL (redis:// or rediss:// for TLS). It may carry a password, so it is a
 * secret variable: never printed, even when invalid.
 */
export const redisUrl = secretVariable(
  z.string().refine((value) => {
    if (!/^rediss?:\/\//.test(value)) return false;
    try {
      return new URL(value).hostname !== '';
    } catch {
      return false;
    }
  }, 'must be a redis://[:password@]host:port[/db] URL, or rediss:// for TLS (unset: limits kept in each process)'),
);

/** Starts every key a server writes to Redis, so that deployments (and test runs) can share one server. */
const redisKeyPrefix = z
  .string()
  .regex(/^[A-Za-z0-9:._{}-]{1,64}$/, 'must be 1 to 64 letters, digits or : . _ - { }')
  .default('catalog:');

export const commonServerEnv = z
  .object({
    DATABASE_URL: databaseUrl.optional(),
    // Checked against the engine registry where the program opens storage (@catalog/engines).
    SEARCH_ENGINE: z.string().min(1).optional(),
    REDIS_URL: redisUrl.optional(),
    REDIS_KEY_PREFIX: redisKeyPrefix,
    DATA_DIR: z
      .string()
      .default('./data')
      .transform((dir) => resolve(dir)),
    HOST: z.string().min(1).default('127.0.0.1'),
    BASE_PATH: z
      .string()
      .regex(
        /^(\/[A-Za-z0-9._~-]+)*$/,
        'must be empty or a path such as /prod (leading slash, no trailing slash)',
      )
      .default(''),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    TRUST_PROXY: booleanFlag(false),
    TRUSTED_PROXIES: trustedProxies.optional(),
    TLS_HANDSHAKE_TIMEOUT_MS: milliseconds(DEFAULT_CONNECTION_TIMEOUTS.tlsHandshakeMs),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(DEFAULT_CONNECTION_TIMEOUTS.headersMs),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(DEFAULT_CONNECTION_TIMEOUTS.requestMs),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(DEFAULT_CONNECTION_TIMEOUTS.keepAliveMs),
    SHUTDOWN_DRAIN_MS: drainMilliseconds,
  })
  .refine((env) => (env.TLS_CERT_FILE === undefined) === (env.TLS_KEY_FILE === undefined), {
    message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    path: ['TLS_CERT_FILE'],
  })
  .refine((env) => !(env.TRUST_PROXY && env.TLS_CERT_FILE !== undefined), {
    message: 'TRUST_PROXY=true means TLS ends at the proxy; do not also set TLS_CERT_FILE/TLS_KEY_FILE',
    path: ['TRUST_PROXY'],
  })
  .refine((env) => env.TRUST_PROXY || env.TRUSTED_PROXIES === undefined, {
    message: 'names the proxies TRUST_PROXY=true believes; set TRUST_PROXY=true too, or unset it',
    path: ['TRUSTED_PROXIES'],
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS, {
    message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
  });

export type CommonServerEnv = z.output<typeof commonServerEnv>;

/** How a server receives HTTPS: its own TLS (local CA or operator files) or a TLS-terminating proxy. */
export type TransportConfig =
  | { readonly mode: 'local-ca'; readonly dataDir: string }
  | { readonly mode: 'tls-files'; readonly certFile: string; readonly keyFile: string }
  | {
      readonly mode: 'behind-proxy';
      /** The TCP peers whose X-Forwarded-* headers are believed; anyone else is a direct caller. */
      readonly trustedProxies: readonly string[];
    };

export function transportFrom(env: CommonServerEnv): TransportConfig {
  if (env.TRUST_PROXY) {
    return {
      mode: 'behind-proxy',
      trustedProxies: Object.freeze(env.TRUSTED_PROXIES ?? [...DEFAULT_TRUSTED_PROXIES]),
    };
  }
  if (env.TLS_CERT_FILE !== undefined && env.TLS_KEY_FILE !== undefined) {
    return { mode: 'tls-files', certFile: resolve(env.TLS_CERT_FILE), keyFile: resolve(env.TLS_KEY_FILE) };
  }
  return { mode: 'local-ca', dataDir: env.DATA_DIR };
}

export function connectionTimeoutsFrom(env: CommonServerEnv): ConnectionTimeouts {
  return Object.freeze({
    tlsHandshakeMs: env.TLS_HANDSHAKE_TIMEOUT_MS,
    headersMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
}
