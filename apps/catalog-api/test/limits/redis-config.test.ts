import { ConfigError } from '@catalog/server-runtime';
import { describe, expect, it } from 'vitest';
import { loadCatalogApiConfig } from '../../src/config/config.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadCatalogApiConfig({ DATA_DIR: '/tmp/catalog-config-test', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('REDIS_URL and REDIS_KEY_PREFIX', () => {
  it('takes a redis:// or rediss:// URL, with the key prefix catalog: unless set', () => {
    expect(loadCatalogApiConfig({ DATA_DIR: '/tmp/x' }).redis).toBeUndefined();
    expect(loadCatalogApiConfig({ DATA_DIR: '/tmp/x', REDIS_URL: 'redis://cache:6379/2' }).redis).toEqual({
      url: 'redis://cache:6379/2',
      keyPrefix: 'catalog:',
    });
    expect(
      loadCatalogApiConfig({ DATA_DIR: '/tmp/x', REDIS_URL: 'rediss://cache', REDIS_KEY_PREFIX: 'stage-b:' })
        .redis,
    ).toEqual({ url: 'rediss://cache', keyPrefix: 'stage-b:' });
  });

  it('refuses another URL without ever printing it (it may hold a password)', () => {
    for (const wrong of ['http://:s3cret@cache:6379', 'redis://', 's3cret']) {
      const problems = problemsOf({ REDIS_URL: wrong });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^REDIS_URL: must be a redis:\/\//);
      expect(problems[0]).toContain('value not shown');
      expect(problems[0]).not.toContain('s3cret');
    }
  });

  it('refuses a key prefix with spaces or glob characters', () => {
    expect(problemsOf({ REDIS_KEY_PREFIX: 'catalog *' })).toEqual([
      'REDIS_KEY_PREFIX: must be 1 to 64 letters, digits or : . _ - { } (got "catalog *")',
    ]);
  });
});
