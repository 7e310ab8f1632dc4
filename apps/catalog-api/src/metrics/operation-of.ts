import { UNMATCHED_OPERATION } from '@catalog/server-runtime';
import type Router from '@koa/router';
import type { Context } from 'koa';

/**
 * The `operation` label of a request: the contract's operationId of the route that served it (the
 * router names every route after it), or of the route it was refused on before routing (a 429 of the
 * rate limits), the probes by name, and "unmatched" for any other path, so scans of random paths
 * cannot grow the label set.
 */
export function operationOf(
  router: Pick<Router, 'match'>,
  probes: ReadonlyMap<string, string>,
): (ctx: Context) => string {
  return (ctx) => {
    const routed = (ctx as Context & { _matchedRouteName?: string })._matchedRouteName;
    if (routed !== undefined) return routed;
    const probe = probes.get(ctx.path);
    if (probe !== undefined) return probe;
    const named = router.match(ctx.path, ctx.method).pathAndMethod.find((layer) => layer.name);
    return named?.name ?? UNMATCHED_OPERATION;
  };
}
