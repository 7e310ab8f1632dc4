import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  clientSecretPepperEnv,
  commonServerEnv,
  DEFAULT_CONNECTION_TIMEOUTS,
  loadServiceSettings,
  parseEnv,
  portSchema,
  syncTokenSecretEnv,
  transportFrom,
} from '../src/index.ts';

const schema = commonServerEnv.and(z.object({ CATALOG_API_PORT: portSchema('CATALOG_API_PORT', 3000) }));

const problemsOf = (attempt: () => unknown): string => {
  try {
    attempt();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('configuration is validated once at start-up', () => {
  it('fills the documented defaults when nothing is set', () => {
    const config = parseEnv('test', schema, {});
    expect(config.CATALOG_API_PORT).toBe(3000);
    expect(config.BASE_PATH).toBe('');
    expect(config.TRUST_PROXY).toBe(false);
    expect(transportFrom(config)).toEqual({ mode: 'local-ca', dataDir: config.DATA_DIR });
  });

  it('returns a frozen object so nothing can change configuration after start-up', () => {
    expect(Object.isFrozen(parseEnv('test', schema, {}))).toBe(true);
  });

  it('lists every invalid variable with its value in one error', () => {
    const attempt = () =>
      parseEnv('catalog-api', schema, { CATALOG_API_PORT: 'eighty', BASE_PATH: 'prod/', TRUST_PROXY: 'yes' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/CATALOG_API_PORT.*"eighty"/);
      expect(problems).toMatch(/BASE_PATH.*"prod\/"/);
      expect(problems).toMatch(/TRUST_PROXY.*"yes"/);
    }
  });

  it('refuses a port outside 0-65535', () => {
    expect(() => parseEnv('test', schema, { CATALOG_API_PORT: '70000' })).toThrow(/between 0 and 65535/);
  });

  it('requires TLS_CERT_FILE and TLS_KEY_FILE together', () => {
    expect(() => parseEnv('test', schema, { TLS_CERT_FILE: '/etc/cert.pem' })).toThrow(/set together/);
  });

  it('treats an empty variable as unset', () => {
    expect(parseEnv('test', schema, { CATALOG_API_PORT: '' }).CATALOG_API_PORT).toBe(3000);
  });

  it('never prints the value of a secret variable, but names it and says why it is invalid', () => {
    const pepper = 'short-pepper-Zq9';
    const message = problemsOf(() =>
      parseEnv('auth-server', schema.and(clientSecretPepperEnv), {
        CLIENT_SECRET_PEPPER: pepper,
        TRUST_PROXY: 'yes',
      }),
    );
    expect(message).toMatch(/CLIENT_SECRET_PEPPER: must be at least 32 characters.*value not shown/);
    expect(message).not.toContain(pepper);
    expect(message).not.toContain('Zq9');
    // Other variables still quote what was found.
    expect(message).toMatch(/TRUST_PROXY.*"yes"/);
  });

  it('takes DATABASE_URL only as a postgres:// URL with a host, and never prints it (it may hold a password)', () => {
    const url = 'postgres://catalog:s3cret-Pw@db.internal:5432/catalog';
    expect(parseEnv('test', schema, { DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(parseEnv('test', schema, { DATABASE_URL: 'postgresql://db/catalog' }).DATABASE_URL).toBe(
      'postgresql://db/catalog',
    );
    expect(parseEnv('test', schema, {}).DATABASE_URL).toBeUndefined();
    for (const wrong of ['mysql://catalog:s3cret-Pw@db/catalog', 'postgres://', 'catalog:s3cret-Pw@db']) {
      const message = problemsOf(() => parseEnv('test', schema, { DATABASE_URL: wrong }));
      expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/.*value not shown/);
      expect(message).not.toContain('s3cret');
    }
  });

  it('takes SYNC_TOKEN_SECRET of 32 characters or more, and never prints a shorter one', () => {
    const env = schema.and(syncTokenSecretEnv);
    expect(parseEnv('test', env, { SYNC_TOKEN_SECRET: 'k'.repeat(32) }).SYNC_TOKEN_SECRET).toBe(
      'k'.repeat(32),
    );
    const message = problemsOf(() => parseEnv('test', env, { SYNC_TOKEN_SECRET: 'short-key-Xw7' }));
    expect(message).toMatch(/SYNC_TOKEN_SECRET: must be at least 32 characters.*value not shown/);
    expect(message).not.toContain('Xw7');
  });

  it('sets connection time-outs from the environment, with defaults', () => {
    const variables = {
      portVariable: 'PORT',
      defaultPort: 3000,
      publicUrlVariable: 'PUBLIC_URL',
      metricsPortVariable: 'METRICS_PORT',
      defaultMetricsPort: 9464,
    };
    expect(loadServiceSettings('test', variables, {}, z.object({})).settings.timeouts).toEqual(
      DEFAULT_CONNECTION_TIMEOUTS,
    );
    const env = {
      TLS_HANDSHAKE_TIMEOUT_MS: '1500',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '3000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
    };
    expect(loadServiceSettings('test', variables, env, z.object({})).settings.timeouts).toEqual({
      tlsHandshakeMs: 1500,
      headersMs: 2000,
      requestMs: 3000,
      keepAliveMs: 4000,
    });
  });

  it('refuses time-outs below 100 ms and a header time-out longer than the request time-out', () => {
    expect(problemsOf(() => parseEnv('test', schema, { TLS_HANDSHAKE_TIMEOUT_MS: '0' }))).toMatch(
      /TLS_HANDSHAKE_TIMEOUT_MS: must be at least 100/,
    );
    expect(
      problemsOf(() =>
        parseEnv('test', schema, { HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
      ),
    ).toMatch(/HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/);
  });
});
