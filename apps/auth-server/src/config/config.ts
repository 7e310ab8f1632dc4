import { loadServiceSettings, type ServiceSettingsWithData } from '@catalog/server-runtime';
import { z } from 'zod';

export type AuthServerConfig = ServiceSettingsWithData;

const authServerOwnEnv = z.object({});

/** Reads the token server's configuration from the environment once, at start-up. */
export function loadAuthServerConfig(
  env: Record<string, string | undefined> = process.env,
): AuthServerConfig {
  const { settings } = loadServiceSettings(
    'auth-server',
    { portVariable: 'AUTH_SERVER_PORT', defaultPort: 4000, publicUrlVariable: 'PUBLIC_AUTH_URL' },
    env,
    authServerOwnEnv,
  );
  return settings;
}
