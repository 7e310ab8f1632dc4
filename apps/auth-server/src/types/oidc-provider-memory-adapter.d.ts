// oidc-provider ships its in-memory adapter without types. Its class takes the storage it keeps
// entries in (get/set/delete, as its LRU), which lets the token server supply its own.
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { Adapter } from 'oidc-provider';

  export interface MemoryAdapterStorage {
    get(key: string): unknown;
    set(key: string, value: unknown, options?: { maxAge?: number }): void;
    delete(key: string): void;
  }

  export default class MemoryAdapter implements Adapter {
    constructor(model: string, storage: MemoryAdapterStorage, clockTolerance?: number);
    upsert: Adapter['upsert'];
    find: Adapter['find'];
    findByUserCode: Adapter['findByUserCode'];
    findByUid: Adapter['findByUid'];
    consume: Adapter['consume'];
    destroy: Adapter['destroy'];
    revokeByGrantId: Adapter['revokeByGrantId'];
  }
}
