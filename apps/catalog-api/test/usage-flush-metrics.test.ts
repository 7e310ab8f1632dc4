import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { createLogger } from '@catalog/server-runtime';
import { MetricsScrape } from '@catalog/server-runtime/testing';
import { describe, expect, it } from 'vitest';
import { CatalogMetrics } from '../src/metrics/catalog-metrics.ts';
import { UsageCounter } from '../src/usage/usage-counter.ts';

// catalog_usage_flushes_total over a real SQLite store: a flush that writes is counted "ok", one whose
// write fails (the database closed under it) "failed", and a flush with nothing to write not at all.

describe('usage flush metrics', () => {
  it('counts each flush that writes by outcome, and none with nothing to write', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'usage-metrics-'));
    const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
      searchWorkers: 1,
    });
    try {
      const metrics = new CatalogMetrics({ enabled: true });
      const usage = new UsageCounter(store.clients, createLogger('test', 'silent'), metrics);
      const clientId = 'UsageMetricsClient00000001';
      await store.clients.create({
        clientId,
        clientName: 'usage metrics',
        scopes: ['brands.read'],
        createdBy: { userId: 't', userName: 'test' },
        expiresAt: null,
        secretHash: 'not-used-here',
        tokenLifetimeSeconds: 3600,
      });
      const flushes = async (outcome: string) =>
        new MetricsScrape(await metrics.registry.metrics()).value('catalog_usage_flushes_total', { outcome });

      await usage.flush();
      expect(await flushes('ok')).toBe(0);

      usage.record(clientId);
      await usage.flush();
      expect(await flushes('ok')).toBe(1);

      await store.close();
      usage.record(clientId);
      await usage.flush();
      expect(await flushes('failed')).toBe(1);
      expect(await flushes('ok')).toBe(1);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
