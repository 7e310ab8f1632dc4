import type { RequestContextState } from '@catalog/server-runtime';
import type { Principal } from '../auth/principal.ts';

/** What middleware puts on `ctx.state` for the handlers after it. */
export interface AppState extends RequestContextState {
  /** The verified caller; absent only on public routes. */
  principal?: Principal;
  /** Web channel the calling M2M client is bound to (null: unbound, or an administrator). */
  channel: string | null;
  /** GET /brands/search names its error code `code` instead of `error` (spec 7.2). */
  errorStyle?: 'code';
}
