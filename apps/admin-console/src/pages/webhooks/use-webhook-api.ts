import { useCallback, useMemo } from 'react';
import { createApiClient } from '../../api/client.ts';
import type { M2MClient } from '../../api/types.ts';
import { createWebhookAdminApi, type WebhookAdminApi } from '../../api/webhook-endpoints.ts';
import { useApp } from '../../app-context.ts';
import { type Loadable, useLoad } from '../../hooks.ts';

/** The webhook routes on the console's one fetch wrapper (same token, time-out and error handling). */
export function useWebhookApi(): WebhookAdminApi {
  const { config } = useApp();
  return useMemo(() => createWebhookAdminApi(createApiClient(config.apiBaseUrl)), [config.apiBaseUrl]);
}

/** Every client (revoked ones too: a subscription names its client whatever became of it). */
export function useAllClients(): Loadable<readonly M2MClient[]> {
  const { api } = useApp();
  const load = useCallback(
    (signal: AbortSignal) => api.listClients('all', signal).then((list) => list.clients),
    [api],
  );
  return useLoad(load)[0];
}

/** The client's name, or its id while the clients load or when it is unknown. */
export function clientNameOf(clients: Loadable<readonly M2MClient[]>, clientId: string): string {
  if (clients.state !== 'ready') return clientId;
  return clients.value.find((client) => client.clientId === clientId)?.clientName ?? clientId;
}
