// The console's runtime configuration, served by the catalog API next to index.html.

export interface ConsoleConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly tokenEndpoint: string;
  readonly authorizationEndpoint: string;
  /** OpenID Connect RP-initiated logout: where "Sign out" ends the token server's session. */
  readonly endSessionEndpoint: string;
  readonly apiBaseUrl: string;
  readonly basePath: string;
  /** Where the embedded default's own CA certificate is on the servers' machine; null with a real CA. */
  readonly localCaFile: string | null;
}

const KEYS = [
  'issuer',
  'clientId',
  'tokenEndpoint',
  'authorizationEndpoint',
  'endSessionEndpoint',
  'apiBaseUrl',
] as const;

export function parseConsoleConfig(value: unknown): ConsoleConfig {
  if (typeof value !== 'object' || value === null) throw new Error('config.json is not an object');
  const record = value as Record<string, unknown>;
  for (const key of KEYS) {
    if (typeof record[key] !== 'string' || record[key] === '') throw new Error(`config.json has no ${key}`);
  }
  return {
    issuer: String(record.issuer),
    clientId: String(record.clientId),
    tokenEndpoint: String(record.tokenEndpoint),
    authorizationEndpoint: String(record.authorizationEndpoint),
    endSessionEndpoint: String(record.endSessionEndpoint),
    apiBaseUrl: String(record.apiBaseUrl).replace(/\/+$/, ''),
    basePath: typeof record.basePath === 'string' ? record.basePath : '',
    localCaFile:
      typeof record.localCaFile === 'string' && record.localCaFile !== '' ? record.localCaFile : null,
  };
}

export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch(new URL('config.json', document.baseURI), {
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  return parseConsoleConfig(await response.json());
}
