export { listenForScrapes, type MetricsListener } from './metrics-listener.ts';
export { createMetricsRegistry } from './metrics-registry.ts';
export { type MetricsSettings, metricsEnv, metricsSettingsFrom } from './metrics-settings.ts';
export { requestMetrics, UNMATCHED_OPERATION } from './request-metrics.ts';
export { statusClass } from './status-class.ts';
