// createCatalogClient: the M2M client (spec 4.1, 4.3, 5, 7.4, 8).
import type { GrantableScope, TokenScope } from '@catalog/contracts';
import { ConfigurationError } from './errors.ts';
import { httpsUrl, rejectUnknownKeys, type TransportOptions, transportSettings } from './http/settings.ts';
import { createMemoryTokenStore, createTokenProvider, type TokenStore } from './http/tokens.ts';
import type { RetryPolicy } from './http/transport.ts';
import { type BrandsResource, brandsResource } from './resources/brands.ts';
import { type ProductsResource, productsResource } from './resources/products.ts';

export interface CatalogClientOptions extends TransportOptions {
  /** The service's https:// base URL, stage prefix included. */
  readonly baseUrl: string | URL;
  /** The token host: tokens come from `{authUrl}/oauth2/token`. */
  readonly authUrl: string | URL;
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * Scopes to request, with or without the `crm-api/` prefix: one token carrying them serves every call.
   * Default: each resource asks, on its first call, for a token with only the scope it needs
   * (products.read for `products`, brands.read for `brands`), so a client granted one scope works.
   */
  readonly scopes?: readonly (GrantableScope | TokenScope)[];
  /** Where tokens are cached; share one between clients (default: in memory, per client). */
  readonly tokenStore?: TokenStore;
}

export interface CatalogClient {
  readonly products: ProductsResource;
  readonly brands: BrandsResource;
  /** The retry policy in force (DEFAULT_RETRY with the `retry` option over it); `sync` follows it too. */
  readonly retry: RetryPolicy;
  /** A valid access token for the products routes (cached, refreshed shortly before expiry). */
  accessToken(signal?: AbortSignal): Promise<string>;
  /** Closes the connections the client opened (not a dispatcher it was given). */
  close(): Promise<void>;
}

const KEYS = ['baseUrl', 'authUrl', 'clientId', 'clientSecret', 'scopes', 'tokenStore'];

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  rejectUnknownKeys(options, KEYS);
  const base = httpsUrl(options.baseUrl, 'baseUrl');
  const authUrl = httpsUrl(options.authUrl, 'authUrl');
  if (!options.clientId) throw new ConfigurationError({ message: 'clientId is required' });
  if (!options.clientSecret) throw new ConfigurationError({ message: 'clientSecret is required' });
  if (options.clientSecret !== options.clientSecret.trim()) {
    // invalid_client would follow (spec 7.4: stray whitespace).
    throw new ConfigurationError({ message: 'clientSecret has leading or trailing whitespace' });
  }
  const { settings, owned } = transportSettings(options);
  const store = options.tokenStore ?? createMemoryTokenStore();
  const tokensFor = (scopes: readonly (GrantableScope | TokenScope)[]) =>
    createTokenProvider({
      authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes,
      store,
      transport: settings,
    });
  // The token server requires `scope` and refuses any scope not granted (spec 4.3): asking each
  // resource's own scope keeps a least-privilege client working. Tokens are fetched on first use.
  const shared = options.scopes === undefined ? undefined : tokensFor(options.scopes);
  const productTokens = shared ?? tokensFor(['products.read']);
  const brandTokens = shared ?? tokensFor(['brands.read']);
  return {
    products: productsResource(settings, base, productTokens),
    brands: brandsResource(settings, base, brandTokens),
    retry: settings.retry,
    accessToken: (signal) => productTokens.token(signal),
    close: async () => {
      await owned?.close();
    },
  };
}
