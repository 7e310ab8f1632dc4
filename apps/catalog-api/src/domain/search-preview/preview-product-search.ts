import {
  type CatalogRequest,
  GRANTABLE_SCOPES,
  type GrantableScope,
  type SearchPreviewAccess,
  type SearchPreviewSubject,
  ServiceError,
} from '@catalog/contracts';
import {
  type CatalogStore,
  isClientUsable,
  type ProductDocumentPage,
  type StoredClient,
} from '@catalog/store';
import { searchProductsForClient } from '../products/search-products.ts';

export type PreviewQuery = CatalogRequest<'previewProductSearch'>['query'];

export interface SearchPreviewResult {
  readonly subject: SearchPreviewSubject;
  readonly access: SearchPreviewAccess;
  /** The page the subject's token would receive; null when the token would be refused. */
  readonly page: ProductDocumentPage | null;
}

const SEARCH_SCOPE: GrantableScope = 'products.read';

const invalid = (field: string, reason: string) =>
  new ServiceError(400, 'VALIDATION_ERROR', `${field} ${reason}`, { details: { field, reason } });

function statusOf(client: StoredClient, now: Date): SearchPreviewSubject['status'] {
  if (client.status === 'revoked') return 'revoked';
  return isClientUsable(client, now) ? 'active' : 'expired';
}

async function storedSubject(
  store: Pick<CatalogStore, 'clients'>,
  clientId: string,
  now: Date,
): Promise<SearchPreviewSubject> {
  const client = await store.clients.get(clientId);
  if (client === undefined) throw ServiceError.of('NOT_FOUND', 'Client not found');
  return {
    clientId: client.clientId,
    clientName: client.clientName,
    status: statusOf(client, now),
    scopes: [...client.scopes],
    channel: client.channel,
  };
}

/** `products.read,brands.read` → the scopes; an entry that is not a grantable scope is refused by name. */
function parseScopes(list: string): GrantableScope[] {
  const scopes = new Set<GrantableScope>();
  for (const entry of list.split(',').map((scope) => scope.trim())) {
    if (entry === '') continue;
    const scope = GRANTABLE_SCOPES.find((grantable) => grantable === entry);
    if (scope === undefined) {
      throw invalid(
        'scopes',
        `names "${entry}", which is not a scope (one of ${GRANTABLE_SCOPES.join(', ')})`,
      );
    }
    scopes.add(scope);
  }
  return [...scopes];
}

async function hypotheticalSubject(
  store: Pick<CatalogStore, 'webChannels'>,
  query: PreviewQuery,
): Promise<SearchPreviewSubject> {
  const scopes = parseScopes(query.scopes ?? SEARCH_SCOPE);
  const channel = query.channel ?? null;
  if (channel !== null && (await store.webChannels.get(channel)) === undefined) {
    throw invalid('channel', `names "${channel}", which is not a web channel of the registry`);
  }
  return { clientId: null, clientName: null, status: 'active', scopes, channel };
}

/** Whether the subject's token would be served by GET /products/search, and why, in plain words. */
function accessOf(subject: SearchPreviewSubject): SearchPreviewAccess {
  const refused = (reason: string): SearchPreviewAccess => ({ allowed: false, status: 403, reason });
  if (subject.status === 'revoked') {
    return refused(
      'This client is revoked: every token it holds is refused with 403, and it gets no new one.',
    );
  }
  if (subject.status === 'expired') {
    return refused(
      'This client is past its expiry date: its tokens are refused with 403, and it gets no new one.',
    );
  }
  if (!subject.scopes.includes(SEARCH_SCOPE)) {
    return refused(
      `This client does not hold ${SEARCH_SCOPE}: its calls to GET /products/search are refused with 403.`,
    );
  }
  const reflects =
    subject.channel === null
      ? 'it is unbound: displayOnWeb reflects the stored flag'
      : `displayOnWeb reflects channel ${subject.channel}`;
  return { allowed: true, status: 200, reason: `Tokens of this client are served; ${reflects}.` };
}

/**
 * What an integrator sees (the admins' GET /products/search-preview): the subject is a stored client
 * (`asClient`) or a hypothetical one (`scopes`, `channel`); when its token would be served, the page is
 * the one GET /products/search gives that token, through the same search call. Reads only.
 */
export async function previewProductSearch(input: {
  readonly store: Pick<CatalogStore, 'clients' | 'webChannels' | 'productSearch'>;
  readonly query: PreviewQuery;
  readonly now: Date;
}): Promise<SearchPreviewResult> {
  const { store, query } = input;
  if (query.asClient !== undefined) {
    if (query.scopes !== undefined) throw invalid('scopes', 'cannot be given together with asClient');
    if (query.channel !== undefined) throw invalid('channel', 'cannot be given together with asClient');
  }
  const subject =
    query.asClient === undefined
      ? await hypotheticalSubject(store, query)
      : await storedSubject(store, query.asClient, input.now);
  const access = accessOf(subject);
  const page = access.allowed
    ? await searchProductsForClient({ search: store.productSearch, query, channel: subject.channel })
    : null;
  return { subject, access, page };
}
