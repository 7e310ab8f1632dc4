import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, commonServerEnv, parseEnv, portSchema, transportFrom } from '../src/index.ts';

const schema = commonServerEnv.and(z.object({ CATALOG_API_PORT: portSchema('CATALOG_API_PORT', 3000) }));

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
});
