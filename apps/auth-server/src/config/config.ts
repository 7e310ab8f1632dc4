import {
  clientSecretPepperEnv,
  loadServiceSettings,
  type ServiceSettingsWithData,
} from '@catalog/server-runtime';
import { z } from 'zod';

export interface AuthServerConfig extends ServiceSettingsWithData {
  /** CLIENT_SECRET_PEPPER; when absent the pepper file under DATA_DIR is used (created on first start). */
  readonly clientSecretPepper: string | undefined;
  /** Extra redirect URIs of the admin console client (ADMIN_CONSOLE_REDIRECT_URIS), for a browser console. */
  readonly adminConsoleRedirectUris: readonly string[];
}

const redirectUriList = z
  .string()
  .transform((value) => value.split(',').map((uri) => uri.trim()))
  .pipe(z.array(z.url({ protocol: /^https$/, error: 'must be a comma-separated list of https:// URLs' })));

const authServerOwnEnv = clientSecretPepperEnv.extend({
  ADMIN_CONSOLE_REDIRECT_URIS: redirectUriList.optional(),
});

/** Reads the token server's configuration from the environment once, at start-up. */
export function loadAuthServerConfig(
  env: Record<string, string | undefined> = process.env,
): AuthServerConfig {
  const { settings, extra } = loadServiceSettings(
    'auth-server',
    { portVariable: 'AUTH_SERVER_PORT', defaultPort: 4000, publicUrlVariable: 'PUBLIC_AUTH_URL' },
    env,
    authServerOwnEnv,
  );
  return Object.freeze({
    ...settings,
    clientSecretPepper: extra.CLIENT_SECRET_PEPPER,
    adminConsoleRedirectUris: Object.freeze(extra.ADMIN_CONSOLE_REDIRECT_URIS ?? []),
  });
}
