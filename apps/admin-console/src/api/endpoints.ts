// The routes the console calls, typed by the contract.
import type { ApiClient, Tagged } from './client.ts';
import type {
  AuditEventPage,
  ClientCreateRequest,
  ClientRevocation,
  ClientUpdateRequest,
  M2MClient,
  M2MClientCreated,
  M2MClientList,
  PreviewQuery,
  SearchPreview,
  WebChannel,
  WebChannelList,
} from './types.ts';

export function createCatalogAdminApi(client: ApiClient) {
  const clientPath = (clientId: string) => `/oauth/clients/${encodeURIComponent(clientId)}`;
  return {
    listClients: (status: 'active' | 'revoked' | 'all' = 'all', signal?: AbortSignal) =>
      client.request<M2MClientList>('/oauth/clients', { query: { status }, ...(signal ? { signal } : {}) }),
    getClient: (clientId: string, signal?: AbortSignal): Promise<Tagged<M2MClient>> =>
      client.requestTagged<M2MClient>(clientPath(clientId), signal ? { signal } : {}),
    createClient: (body: ClientCreateRequest) =>
      client.request<M2MClientCreated>('/oauth/clients', { method: 'POST', body }),
    /** With `ifMatch`, made against that version only: 412 if someone changed the client since. */
    updateClient: (clientId: string, body: ClientUpdateRequest, ifMatch?: string) =>
      client.request<M2MClient>(clientPath(clientId), {
        method: 'PUT',
        body,
        ...(ifMatch === undefined ? {} : { ifMatch }),
      }),
    revokeClient: (clientId: string) =>
      client.request<ClientRevocation>(clientPath(clientId), { method: 'DELETE' }),
    /** The newest audit events of one client (a detail page shows its recent activity, not the whole trail). */
    listClientEvents: (clientId: string, limit: number, signal?: AbortSignal) =>
      client.request<AuditEventPage>('/audit-events', {
        query: { targetType: 'client', targetId: clientId, limit },
        ...(signal ? { signal } : {}),
      }),
    listChannels: (signal?: AbortSignal) =>
      client.request<WebChannelList>('/company-settings/web-channels', signal ? { signal } : {}),
    createChannel: (body: WebChannel) =>
      client.request<WebChannel>('/company-settings/web-channels', { method: 'POST', body }),
    /** The registry with its ETag, which a rename sends back so that it never overwrites another's. */
    listChannelsTagged: (signal?: AbortSignal): Promise<Tagged<WebChannelList>> =>
      client.requestTagged<WebChannelList>('/company-settings/web-channels', signal ? { signal } : {}),
    updateChannel: (body: WebChannel, ifMatch?: string) =>
      client.request<WebChannel>('/company-settings/web-channels', {
        method: 'PUT',
        body,
        ...(ifMatch === undefined ? {} : { ifMatch }),
      }),
    previewSearch: (query: PreviewQuery) =>
      client.request<SearchPreview>('/products/search-preview', { query: { ...query } }),
  };
}

export type CatalogAdminApi = ReturnType<typeof createCatalogAdminApi>;
