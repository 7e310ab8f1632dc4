import { createRequire } from 'node:module';
import { rawRequest } from './spawn-service.ts';

/** A sample as parse-prometheus-text-format gives it. */
export interface MetricSample {
  readonly labels?: Record<string, string>;
  readonly value?: string;
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly MetricSample[];
}

// The package ships CommonJS without type declarations.
const parsePrometheusText = createRequire(import.meta.url)('parse-prometheus-text-format') as (
  text: string,
) => MetricFamily[];

const HISTOGRAM_TYPE_LINE = /^# TYPE (\S+) histogram$/;

/**
 * Everything a metrics listener exposes, read with a real Prometheus text-format parser. Histograms
 * are read as the series Prometheus stores (`<name>_bucket`, `_sum`, `_count`): the parser merges a
 * histogram's samples into one bucket map and loses their labels, so their HELP and TYPE lines are
 * set aside (and kept in `histograms`) before parsing.
 */
export class MetricsScrape {
  readonly families: ReadonlyMap<string, MetricFamily>;
  readonly histograms: ReadonlySet<string>;

  constructor(text: string) {
    const lines = text.split('\n');
    const histograms = new Set(lines.flatMap((line) => HISTOGRAM_TYPE_LINE.exec(line)?.[1] ?? []));
    const kept = lines.filter((line) => {
      const [hash, kind, name] = line.split(' ');
      return !(hash === '#' && (kind === 'TYPE' || kind === 'HELP') && histograms.has(name ?? ''));
    });
    this.histograms = histograms;
    // Read that way, a histogram's series alternate (buckets, sum, count of one label set, then the
    // next), and the parser starts a new family at each change of name: merge them back by name.
    const families = new Map<string, MetricFamily>();
    for (const family of parsePrometheusText(kept.join('\n'))) {
      const seen = families.get(family.name);
      families.set(
        family.name,
        seen === undefined ? family : { ...seen, metrics: [...seen.metrics, ...family.metrics] },
      );
    }
    this.families = families;
  }

  /**
   * A counter's or gauge's value, or a histogram's observation count, summed over the samples whose
   * labels include `labels`; 0 when none does (a counter not yet moved).
   */
  value(name: string, labels: Record<string, string> = {}): number {
    const family = this.families.get(this.histograms.has(name) ? `${name}_count` : name);
    if (family === undefined) return 0;
    let total = 0;
    for (const sample of family.metrics) {
      const own = sample.labels ?? {};
      if (!Object.entries(labels).every(([key, expected]) => own[key] === expected)) continue;
      total += Number(sample.value);
    }
    return total;
  }
}

/** Scrapes a metrics URL (plain HTTP on loopback) and parses what it answers. */
export async function scrapeMetrics(metricsUrl: string): Promise<MetricsScrape> {
  const reply = await rawRequest(metricsUrl);
  if (reply.status !== 200) throw new Error(`scrape of ${metricsUrl} answered ${reply.status}`);
  return new MetricsScrape(reply.body);
}
