import { z } from 'zod';
import type { ServiceSettings } from '../start-http-service.ts';
import {
  commonServerEnv,
  connectionTimeoutsFrom,
  httpsUrl,
  portSchema,
  transportFrom,
} from './common-env.ts';
import { parseEnv } from './parse-env.ts';

type Env = Record<string, string | undefined>;

export interface ServiceVariables {
  /** e.g. CATALOG_API_PORT */
  readonly portVariable: string;
  readonly defaultPort: number;
  /** e.g. PUBLIC_CATALOG_URL */
  readonly publicUrlVariable: string;
}

export interface ServiceSettingsWithData extends ServiceSettings {
  readonly dataDir: string;
}

/**
 * Parses the variables every server has (DATA_DIR, HOST, BASE_PATH, LOG_LEVEL, TLS, TRUST_PROXY,
 * connection time-outs, its port and its public URL) plus the service's own `extra` schema,
 * reporting all problems at once.
 */
export function loadServiceSettings<E extends z.ZodObject>(
  service: string,
  variables: ServiceVariables,
  env: Env,
  extra: E,
): { readonly settings: ServiceSettingsWithData; readonly extra: z.output<E> } {
  const schema = commonServerEnv.and(
    z.object({
      [variables.portVariable]: portSchema(variables.portVariable, variables.defaultPort),
      [variables.publicUrlVariable]: httpsUrl.optional(),
    }),
  );
  const parsed = parseEnv(service, schema.and(extra), env) as z.output<typeof commonServerEnv> &
    Record<string, unknown> &
    z.output<E>;
  const settings: ServiceSettingsWithData = Object.freeze({
    dataDir: parsed.DATA_DIR,
    host: parsed.HOST,
    port: parsed[variables.portVariable] as number,
    basePath: parsed.BASE_PATH,
    logLevel: parsed.LOG_LEVEL,
    transport: transportFrom(parsed),
    timeouts: connectionTimeoutsFrom(parsed),
    publicUrl: parsed[variables.publicUrlVariable] as string | undefined,
  });
  return Object.freeze({ settings, extra: parsed });
}
