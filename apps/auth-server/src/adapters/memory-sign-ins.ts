import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import { SignInStore } from '../oidc/sign-in-store.ts';
import type { SignIns } from '../ports/sign-ins.ts';

/**
 * Sign-ins in progress in this process's memory: oidc-provider's memory adapter over a store that
 * bounds open interactions and never evicts anything else (../oidc/sign-in-store.ts). Created once
 * per server, it outlives provider rebuilds (key rotation), so a sign-in in progress survives a reload.
 */
export function memorySignIns(capacity: number): SignIns {
  const store = new SignInStore({ capacity });
  return {
    adapter: (model) => new MemoryAdapter(model, store),
    keep: async (uid) => {
      const kept = store.keepInteraction(uid);
      if (typeof kept === 'string') return kept;
      return { release: async () => kept.release() };
    },
  };
}
