import { INTERACTION_PATH, OIDC_ROUTES } from '@catalog/identity';
import { UNMATCHED_OPERATION } from '@catalog/server-runtime';
import type { Context } from 'koa';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * The `operation` label of a token server request: the endpoint it is for (token, jwks, discovery,
 * authorization, interaction (the login pages), userinfo, end_session, health, ready), and
 * "unmatched" for anything else, so scans of random paths cannot grow the label set.
 */
export function operationOf(basePath: string): (ctx: Context) => string {
  const exact = new Map<string, string>([
    [`${basePath}/health`, 'health'],
    [`${basePath}/ready`, 'ready'],
    [`${basePath}${OIDC_ROUTES.token}`, 'token'],
    [`${basePath}${OIDC_ROUTES.jwks}`, 'jwks'],
    [`${basePath}${DISCOVERY_PATH}`, 'discovery'],
    [`${basePath}${OIDC_ROUTES.userinfo}`, 'userinfo'],
  ]);
  // These serve a path and the steps below it (/oauth2/authorize/:uid resumes a sign-in).
  const prefixes: [string, string][] = [
    [`${basePath}${OIDC_ROUTES.authorization}`, 'authorization'],
    [`${basePath}${INTERACTION_PATH}`, 'interaction'],
    [`${basePath}${OIDC_ROUTES.end_session}`, 'end_session'],
  ];
  return (ctx) => {
    const named = exact.get(ctx.path);
    if (named !== undefined) return named;
    const under = prefixes.find(([path]) => ctx.path === path || ctx.path.startsWith(`${path}/`));
    return under?.[1] ?? UNMATCHED_OPERATION;
  };
}
