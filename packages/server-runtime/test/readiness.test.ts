import { describe, expect, it } from 'vitest';
import { readiness, ShutdownState } from '../src/koa/readiness.ts';

describe('readiness', () => {
  it('is ready only when every check passes, naming each check', async () => {
    const shutdown = new ShutdownState();
    expect(await readiness({ store: () => true, keys: async () => true }, shutdown)).toEqual({
      status: 'ready',
      checks: { store: 'ok', keys: 'ok', shutdown: 'running' },
    });
    expect(await readiness({ store: () => true, keys: async () => false }, shutdown)).toEqual({
      status: 'not-ready',
      checks: { store: 'ok', keys: 'failing', shutdown: 'running' },
    });
  });

  it('takes a check that throws for a failing one, and tells nothing of the error', async () => {
    const body = await readiness(
      {
        store: async () => {
          throw new Error('SQLITE_CANTOPEN /var/lib/secret/path');
        },
      },
      new ShutdownState(),
    );
    expect(body).toEqual({ status: 'not-ready', checks: { store: 'failing', shutdown: 'running' } });
    expect(JSON.stringify(body)).not.toContain('SQLITE');
  });

  it('is not ready once draining, without running the checks', async () => {
    const shutdown = new ShutdownState();
    shutdown.startDraining();
    let ran = false;
    const body = await readiness(
      {
        store: () => {
          ran = true;
          return true;
        },
      },
      shutdown,
    );
    expect(body).toEqual({ status: 'not-ready', checks: { shutdown: 'draining' } });
    expect(ran).toBe(false);
  });
});
