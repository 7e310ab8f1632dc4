// createCatalogClient: the M2M client (spec 4.1, 4.3, 5, 7.4, 8).
import type { GrantableScope, TokenScope } from '@catalog/contracts';
import { ConfigurationError } from './errors.ts';
import { httpsUrl, rejectUnknownKeys, type TransportOptions, transportSettings } from './http/settings.ts';
import { createMemoryTokenStore, createTokenProvider, type TokenStore } from './http/tokens.ts';
import { type BrandsResource, brandsResource } from './resources/brands.ts';
import { type ProductsResource, productsResource } from './resources/products.ts';

export interface CatalogClientOptions extends TransportOptions {
  /** The service's https:// base URL, stage prefix included. */
  readonly baseUrl: string | URL;
  /** The token host: tokens come from `{authUrl}/oauth2/token`. */
  readonly authUrl: string | URL;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Scopes to request, with or without the `crm-api/` prefix (default products.read and brands.read). */
  readonly scopes?: readonly (GrantableScope | TokenScope)[];
  /** Where tokens are cached; share one between clients (default: in memory, per client). */
  readonly tokenStore?: TokenStore;
}

export interface CatalogClient {
  readonly products: ProductsResource;
  readonly brands: BrandsResource;
  /** A valid access token (cached, refreshed shortly before expiry). */
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
  const tokens = createTokenProvider({
    authUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes: options.scopes ?? ['products.read', 'brands.read'],
    store: options.tokenStore ?? createMemoryTokenStore(),
    transport: settings,
  });
  return {
    products: productsResource(settings, base, tokens),
    brands: brandsResource(settings, base, tokens),
    accessToken: (signal) => tokens.token(signal),
    close: async () => {
      await owned?.close();
    },
  };
}
