// The embedded database's outbox in a worker thread: what the API sees when the thread cannot start.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openRecords } from '@catalog/engines';
import { tempDataDir } from '@catalog/store/testing';
import { describe, expect, it } from 'vitest';
import { ThreadedOutbox } from '../../src/webhooks/outbox/threaded-outbox.ts';

describe('the outbox thread', () => {
  it('fails to open with the reason when it cannot open the records, and the next call starts another thread', async () => {
    const dataDir = join(tempDataDir(), 'created-later');
    const outbox = new ThreadedOutbox({ engine: 'sqlite', dataDir });
    await expect(outbox.open()).rejects.toThrow(/ENOENT/);
    mkdirSync(dataDir);
    const records = await openRecords({ engine: 'sqlite', dataDir });
    try {
      expect(await outbox.queueDepth()).toEqual({ pending: 0, feedBacklog: 0 });
    } finally {
      await outbox.close();
      await records.close();
    }
  });

  it("opens only a catalogue the API has opened (migrated to this code's schema), never migrating one itself", async () => {
    const dataDir = tempDataDir();
    await expect(new ThreadedOutbox({ engine: 'sqlite', dataDir }).open()).rejects.toThrow(
      /schema version 0, this code's is \d+: the API migrates it/,
    );
    const records = await openRecords({ engine: 'sqlite', dataDir });
    const outbox = await new ThreadedOutbox({ engine: 'sqlite', dataDir }).open();
    try {
      expect(await outbox.queueDepth()).toEqual({ pending: 0, feedBacklog: 0 });
    } finally {
      await outbox.close();
      await records.close();
    }
  });

  it('refuses calls once closed', async () => {
    const dataDir = tempDataDir();
    const records = await openRecords({ engine: 'sqlite', dataDir });
    const outbox = await new ThreadedOutbox({ engine: 'sqlite', dataDir }).open();
    await outbox.close();
    await records.close();
    await expect(outbox.queueDepth()).rejects.toThrow(/closed/);
  });
});
