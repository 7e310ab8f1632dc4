import { describe, expect, it } from 'vitest';
import { openPool } from '../../src/adapters/postgres/open-pool.ts';
import { freshSchema } from '../support/postgres-factory.ts';

describe('PostgreSQL connections of the store', () => {
  it('run without JIT compilation, whose cost dwarfs the short statements of the catalogue', async () => {
    const { url, schema, drop } = await freshSchema();
    const pool = openPool({ url, schema, maxConnections: 2 });
    try {
      // Two clients at once: the setting holds on every connection the pool opens, not only the first.
      const [first, second] = await Promise.all([pool.connect(), pool.connect()]);
      for (const client of [first, second]) {
        expect((await client.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
        client.release();
      }
      expect((await pool.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
    } finally {
      await pool.end();
      await drop();
    }
  });

  it('keep the settings a DATABASE_URL gives (options=-c search_path=…) beside their own', async () => {
    const { url, schema, drop } = await freshSchema();
    const pool = openPool({ url: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}` });
    try {
      const shown = await pool.query<{ search_path: string }>('SHOW search_path');
      expect(shown.rows[0]?.search_path).toBe(schema);
      expect((await pool.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
    } finally {
      await pool.end();
      await drop();
    }
  });
});
