import { OIDC_ROUTES } from '@catalog/identity';
import Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { clientFailureLimit } from '../limits/client-failure-limit.ts';
import type { TokenOutcome } from '../metrics/auth-metrics.ts';
import type { IssuableClients } from '../ports/issuable-clients.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import { type ClientSecretVerifier, clientSecretCheck } from './client-secret-check.ts';
import { countTokenOutcomes } from './count-token-outcomes.ts';
import { type ProviderConfigurationInput, providerConfiguration } from './provider-configuration.ts';
import { recordTokenExchange } from './record-token-exchange.ts';
import { tokenEndpointErrors } from './token-endpoint-errors.ts';

export interface CreateProviderInput extends ProviderConfigurationInput {
  readonly issuer: string;
  readonly pepper: Uint8Array;
  readonly secretVerifier: ClientSecretVerifier;
  readonly clients: IssuableClients;
  /** Failed client authentications per client id (TOKEN_RATE_LIMIT_CLIENT_PER_MIN). */
  readonly perClient: RateLimiter;
  readonly logger: Logger;
  /** Behind a TLS-terminating proxy the protocol comes from X-Forwarded-Proto. */
  readonly proxy: boolean;
  /** Hears how each token request ended (the metrics). */
  readonly onTokenOutcome?: (outcome: TokenOutcome) => void;
}

/** One provider instance for the current signing keys; rebuilt when the keys change. */
export function createProvider(input: CreateProviderInput): Provider {
  const provider = new Provider(input.issuer, providerConfiguration(input));
  provider.proxy = input.proxy;
  const secrets = clientSecretCheck({
    tokenPath: OIDC_ROUTES.token,
    verifier: input.secretVerifier,
    pepper: input.pepper,
  });
  // The stored client_secret is a peppered HMAC: compare the presented secret's HMAC in constant time.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(
    this: { clientSecret?: string },
    actual,
  ) {
    return secrets.compare(actual, this.clientSecret ?? '');
  };
  if (input.onTokenOutcome) provider.use(countTokenOutcomes(OIDC_ROUTES.token, input.onTokenOutcome));
  provider.use(clientFailureLimit(OIDC_ROUTES.token, input.perClient));
  provider.use(tokenEndpointErrors(OIDC_ROUTES.token));
  provider.use(secrets.equalWork);
  provider.use(recordTokenExchange(OIDC_ROUTES.token, input.clients, input.logger));
  provider.on('server_error', (_ctx, error) =>
    input.logger.error({ err: error }, 'oidc-provider server error'),
  );
  return provider;
}
