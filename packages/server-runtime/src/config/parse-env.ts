import type { z } from 'zod';
import { secretVariableNames } from './secret-variable.ts';

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
 * so `FOO= pnpm start` falls back to the default instead of failing on "". A problem quotes the
 * value it found, except for variables marked with `secretVariable`: start-up errors reach logs.
 */
export function parseEnv<S extends z.ZodType>(service: string, schema: S, env: Env): Readonly<z.output<S>> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const secrets = secretVariableNames(schema);
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      const variable = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const given = variable === undefined ? undefined : cleaned[variable];
      if (given === undefined) return `${name}: ${issue.message}`;
      if (variable !== undefined && secrets.has(variable)) {
        return `${name}: ${issue.message} (value not shown: it is a secret)`;
      }
      return `${name}: ${issue.message} (got ${JSON.stringify(given)})`;
    });
    throw new ConfigError(service, problems);
  }
  return Object.freeze(result.data);
}
