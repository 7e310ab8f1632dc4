import { z } from 'zod';
import { booleanFlag, portSchema } from '../config/common-env.ts';

/** Where a server publishes its Prometheus metrics, if it does. */
export interface MetricsSettings {
  /** METRICS_ENABLED: false collects nothing per request and opens no metrics listener. */
  readonly enabled: boolean;
  /** METRICS_HOST: loopback by default, so the metrics are never public. */
  readonly host: string;
  /** The service's own metrics port variable (METRICS_PORT, AUTH_METRICS_PORT); 0 picks a free port. */
  readonly port: number;
  /** Name of that variable, for the error message when the port is taken. */
  readonly portVariable: string;
}

/**
 * The variables of the metrics listener. Each server has its own port variable: `pnpm start` runs
 * both with one environment, so one METRICS_PORT would make them collide.
 */
export const metricsEnv = (portVariable: string, defaultPort: number) =>
  z.object({
    METRICS_ENABLED: booleanFlag(true),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    [portVariable]: portSchema(portVariable, defaultPort),
  });

export function metricsSettingsFrom(parsed: Record<string, unknown>, portVariable: string): MetricsSettings {
  return Object.freeze({
    enabled: parsed.METRICS_ENABLED as boolean,
    host: parsed.METRICS_HOST as string,
    port: parsed[portVariable] as number,
    portVariable,
  });
}
