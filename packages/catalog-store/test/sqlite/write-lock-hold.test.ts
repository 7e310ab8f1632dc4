import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/sqlite/open-database.ts';
import { inWriteTransaction, takeWriteLockHold } from '../../src/adapters/sqlite/transaction.ts';

// Another process takes the file's write lock, says so, and gives it up after the milliseconds
// given, printing the wall-clock time it did.
const HOLD_LOCK = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => { db.exec('COMMIT'); console.log(Date.now()); db.close(); }, Number(process.argv[2]));
`;

describe('the time a write transaction held the SQLite write lock (what the outbox paces itself by)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'write-lock-hold-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts from the lock taken to the commit, adds up the transactions since it was last taken, and is zero after', () => {
    const db = openDatabase(join(dir, 'hold.db'));
    try {
      db.exec('CREATE TABLE t (n INTEGER)');
      takeWriteLockHold(db);
      let inside = 0;
      const calledAt = performance.now();
      for (let i = 0; i < 2; i += 1)
        inWriteTransaction(db, () => {
          const startedAt = performance.now();
          for (let n = 0; n < 2000; n += 1) db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
          inside += performance.now() - startedAt;
        });
      const wall = performance.now() - calledAt;
      const held = takeWriteLockHold(db);
      expect(held).toBeGreaterThanOrEqual(inside);
      expect(held).toBeLessThanOrEqual(wall);
      expect(takeWriteLockHold(db)).toBe(0);
    } finally {
      db.close();
    }
  });

  it("leaves out the wait for another connection's lock", async () => {
    const path = join(dir, 'hold.db');
    const db = openDatabase(path);
    try {
      db.exec('CREATE TABLE t (n INTEGER)');
      // The other process lets go on a timer (this thread is blocked meanwhile): a run in which it
      // let go before this one asked measured no wait, and is made again with a longer hold.
      for (let holdMs = 300; ; holdMs *= 4) {
        const child = spawn(process.execPath, ['-e', HOLD_LOCK, path, String(holdMs)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        expect((await lines.next()).value).toBe('locked');
        takeWriteLockHold(db);
        const calledAt = Date.now();
        // Blocks in SQLite's busy handler until the other process commits.
        inWriteTransaction(db, () => db.prepare('INSERT INTO t (n) VALUES (1)').run());
        const returnedAt = Date.now();
        const held = takeWriteLockHold(db);
        const releasedAt = Number((await lines.next()).value);
        await once(child, 'exit');
        if (releasedAt <= calledAt && holdMs < 20_000) continue;
        expect(releasedAt).toBeGreaterThan(calledAt);
        // Date.now() counts whole milliseconds: one either side.
        expect(held).toBeLessThanOrEqual(returnedAt - releasedAt + 2);
        expect(returnedAt - calledAt).toBeGreaterThan(held);
        return;
      }
    } finally {
      db.close();
    }
  });
});
