// sync(), the file checkpoint store and the CLI's sinks without a real server (these also run on Node 20).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNdjsonSink } from '../../src/cli/sinks/ndjson-sink.ts';
import { openSqliteSink, SqliteUnavailableError } from '../../src/cli/sinks/sqlite-sink.ts';
import { createCatalogClient, createFileCheckpointStore, type Product, sync } from '../../src/index.ts';
import { type LocalApi, startLocalApi } from '../support/local-api.ts';

let api: LocalApi;
let dir: string;
beforeAll(async () => {
  api = await startLocalApi();
  dir = await mkdtemp(join(tmpdir(), 'sdk-unit-sync-'));
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const product = (id: string, name: string) => ({ id, name }) as Product;

describe('spec 4.4 on this Node', () => {
  it('step 3: a clean pass commits the start time minus the 900 s overlap, in an atomically replaced JSON file', async () => {
    const client = createCatalogClient({
      baseUrl: api.url,
      authUrl: api.url,
      clientId: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      clientSecret: 'secret',
      ca: api.ca,
      pacing: false,
    });
    const path = join(dir, 'state.json');
    const now = Date.parse('2026-01-01T12:00:00Z');
    const report = await sync({
      client,
      checkpointStore: createFileCheckpointStore(path),
      upsert: () => undefined,
      now: () => now,
    });
    expect(report.checkpoint).toBe('2026-01-01T11:45:00.000Z');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 1,
      checkpoint: report.checkpoint,
      progress: null,
    });
    await client.close();
  });

  it('the NDJSON output buffers pages, appends them on flush and compacts to one line per id (the last write wins)', async () => {
    const path = join(dir, 'out.ndjson');
    const sink = await openNdjsonSink(path);
    await sink.upsert([product('a', 'one'), product('b', 'two')]);
    await sink.upsert([product('a', 'three')]);
    expect(await readFile(path, 'utf8')).toBe('');
    await sink.flush();
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(3);
    await sink.finish();
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([product('b', 'two'), product('a', 'three')]);
  });

  it('the SQLite output works where node:sqlite exists (Node 22.5+) and gives a clear error elsewhere', async () => {
    const path = join(dir, 'out.sqlite');
    const hasSqlite = await import('node:sqlite').then(
      () => true,
      () => false,
    );
    if (!hasSqlite) {
      const error = await openSqliteSink(path).catch((caught) => caught);
      expect(error).toBeInstanceOf(SqliteUnavailableError);
      expect(error.message).toContain('Node.js 22.5');
      return;
    }
    const sink = await openSqliteSink(path);
    await sink.upsert([product('a', 'one')]);
    await sink.upsert([product('a', 'two'), product('b', 'three')]);
    await sink.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare('SELECT id, data FROM products ORDER BY id').all() as {
      id: string;
      data: string;
    }[];
    db.close();
    expect(rows.map((row) => [row.id, JSON.parse(row.data).name])).toEqual([
      ['a', 'two'],
      ['b', 'three'],
    ]);
  });
});
