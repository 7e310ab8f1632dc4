// The only module of the SDK that reads the environment: the CLI's secret and defaults.

export interface CliEnvironment {
  readonly clientSecret: string | undefined;
  readonly baseUrl: string | undefined;
  readonly authUrl: string | undefined;
  readonly clientId: string | undefined;
}

export function readCliEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  return Object.freeze({
    clientSecret: value('CATALOG_CLIENT_SECRET'),
    baseUrl: value('CATALOG_BASE_URL'),
    authUrl: value('CATALOG_AUTH_URL'),
    clientId: value('CATALOG_CLIENT_ID'),
  });
}
