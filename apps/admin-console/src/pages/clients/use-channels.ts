import { useCallback } from 'react';
import type { WebChannel } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { useLoad } from '../../hooks.ts';

/** The web-channel registry, for the channel selects; empty while loading or when it failed. */
export function useChannelOptions(): { channels: readonly WebChannel[]; error: unknown } {
  const { api } = useApp();
  const load = useCallback((signal: AbortSignal) => api.listChannels(signal), [api]);
  const [result] = useLoad(load);
  return {
    channels: result.state === 'ready' ? result.value.channels : [],
    error: result.state === 'error' ? result.error : null,
  };
}
