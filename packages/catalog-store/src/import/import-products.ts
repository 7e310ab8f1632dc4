import { stat } from 'node:fs/promises';
import type { AuditContext } from '../model/audit-event.ts';
import type { ProductInput } from '../model/product.ts';
import type { LoadTarget } from '../ports/catalog-store.ts';
import type { Problem } from '../validation/problem.ts';
import { checkProductInput } from '../validation/product-input.ts';
import { ndjsonLines } from './ndjson-lines.ts';

export interface LineProblem extends Problem {
  line: number;
}

export interface ImportProgress {
  phase: 'validate' | 'write';
  bytesRead: number;
  totalBytes: number;
  records: number;
}

export interface ImportOptions {
  batchSize?: number;
  /** Stop listing problems after this many (the count stays exact). */
  maxReportedProblems?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Who imports: each written batch then appends its 'catalogue.import-batch' event in its own transaction. */
  audit?: AuditContext;
}

export interface ImportReport {
  records: number;
  created: number;
  updated: number;
  /** Problems by line; when any exists nothing was written. */
  problems: LineProblem[];
  problemCount: number;
  /**
   * Set when a batch failed to write: it and every later batch were not written, nor any batch at
   * all when the catalogue was empty (its load is one transaction: `created` and `updated` are 0).
   */
  failedBatch?: { firstLine: number; lastLine: number; message: string };
}

/** Products per batch of `ProductStore.bulkLoadAll` (and per transaction, unless the catalogue is empty). */
const DEFAULT_BATCH = 5000;
/**
 * An import at least this large compacts the search index when it is done (about 4 s at 1M
 * products): worth it after a bulk load, not after a handful of corrections.
 */
const COMPACT_AFTER = 10_000;

/**
 * The record as the API's admin writes check it (the contract's schema, derived entries dropped),
 * then the rule only the store knows: every channel it names is registered.
 */
function checkRecord(value: unknown, channels: ReadonlySet<string>): Problem[] {
  const { problems, input } = checkProductInput(value);
  for (const slug of Object.keys(input?.webVisibility ?? {})) {
    if (!channels.has(slug))
      problems.push({ field: `webVisibility.${slug}`, reason: 'is not a registered web channel' });
  }
  return problems;
}

function parseLine(text: string): { value?: unknown; problem?: Problem } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: { field: '(line)', reason: `is not valid JSON: ${(error as Error).message}` } };
  }
}

/** First pass: every record checked against the admin model and the registered channels. */
async function validateFile(
  store: LoadTarget,
  filePath: string,
  totalBytes: number,
  options: ImportOptions,
): Promise<{ records: number; problems: LineProblem[]; problemCount: number }> {
  const channels = new Set((await store.webChannels.list()).map((channel) => channel.slug));
  const maxReported = options.maxReportedProblems ?? 1000;
  const problems: LineProblem[] = [];
  let problemCount = 0;
  let records = 0;
  const report = (line: number, problem: Problem) => {
    problemCount += 1;
    if (problems.length < maxReported) problems.push({ line, ...problem });
  };
  for await (const line of ndjsonLines(filePath)) {
    records += 1;
    const parsed = parseLine(line.text);
    if (parsed.problem !== undefined) report(line.number, parsed.problem);
    else for (const problem of checkRecord(parsed.value, channels)) report(line.number, problem);
    if (records % 1000 === 0)
      options.onProgress?.({ phase: 'validate', bytesRead: line.bytesRead, totalBytes, records });
  }
  return { records, problems, problemCount };
}

/**
 * `pnpm catalog import FILE.ndjson`: one admin-model product per line. The whole file is validated
 * first and nothing is written if any line is wrong; then it is written in batches, each one
 * transaction (into an empty catalogue, one transaction for the whole file), and a large import
 * compacts the search index. Records are upserted by id, so a re-run after a failed batch is safe.
 */
export async function importProducts(
  store: LoadTarget,
  filePath: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const totalBytes = (await stat(filePath)).size;
  const validation = await validateFile(store, filePath, totalBytes, options);
  const report: ImportReport = {
    records: validation.records,
    created: 0,
    updated: 0,
    problems: validation.problems,
    problemCount: validation.problemCount,
  };
  if (validation.problemCount > 0) return report;

  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  // The batch being written, for the report of a failure, and the file read up to its end.
  const current = { firstLine: 0, lastLine: 0, bytesRead: 0 };
  async function* batches(): AsyncGenerator<ProductInput[]> {
    let batch: ProductInput[] = [];
    for await (const line of ndjsonLines(filePath)) {
      if (batch.length === 0) current.firstLine = line.number;
      current.lastLine = line.number;
      // Checked in the first pass; the store's bulk load checks each record again before it writes.
      batch.push(JSON.parse(line.text) as ProductInput);
      if (batch.length >= batchSize) {
        current.bytesRead = line.bytesRead;
        yield batch;
        batch = [];
      }
    }
    current.bytesRead = totalBytes;
    if (batch.length > 0) yield batch;
  }
  let written = 0;
  try {
    const summary = await store.products.bulkLoadAll(batches(), {
      ...(options.audit === undefined ? {} : { audit: options.audit }),
      onBatch: ({ created, updated, committed }) => {
        // Only committed batches count until the load succeeds: a failure rolls back the others.
        if (committed) {
          report.created += created;
          report.updated += updated;
        }
        written += created + updated;
        options.onProgress?.({ phase: 'write', bytesRead: current.bytesRead, totalBytes, records: written });
      },
    });
    report.created = summary.created;
    report.updated = summary.updated;
  } catch (error) {
    report.failedBatch = {
      firstLine: current.firstLine,
      lastLine: current.lastLine,
      message: error instanceof Error ? error.message : String(error),
    };
    return report;
  }
  if (written >= COMPACT_AFTER) await store.compactSearchIndex();
  return report;
}
