import type { RequestContextState } from '@catalog/server-runtime';

/** What middleware puts on `ctx.state` for the handlers after it. */
export type AppState = RequestContextState;
