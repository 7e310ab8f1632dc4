import type { z } from 'zod';

/** Thrown at start-up when the environment does not describe a valid configuration. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(service: string, problems: readonly string[]) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/**
 * Parses the environment once into a frozen, typed object. Empty strings count as unset,
 * so `FOO= pnpm start` falls back to the default instead of failing on "".
 */
export function parseEnv<S extends z.ZodType>(service: string, schema: S, env: Env): Readonly<z.output<S>> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      const given = typeof issue.path[0] === 'string' ? cleaned[issue.path[0]] : undefined;
      return `${name}: ${issue.message}${given === undefined ? '' : ` (got ${JSON.stringify(given)})`}`;
    });
    throw new ConfigError(service, problems);
  }
  return Object.freeze(result.data);
}
