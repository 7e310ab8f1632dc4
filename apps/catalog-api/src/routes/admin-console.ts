import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ADMIN_CLIENT_ID, ServiceError } from '@catalog/contracts';
import type Router from '@koa/router';
import type { AppState } from '../http/app-state.ts';
import { contractRoute, type RouteContext } from '../http/contract-route.ts';
import { publicBaseUrl } from '../http/public-base-url.ts';
import type { RouteDeps } from './route-deps.ts';

/** A plain file name: no separator, so no way out of the directory it is looked up in. */
const PLAIN_FILE_NAME = /^[\w.-]+$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

// Vite puts a content hash in every name under assets/: a changed file is a new URL.
const IMMUTABLE = 'public, max-age=31536000, immutable';

const notFound = () => ServiceError.of('NOT_FOUND', 'Not found');
const notBuilt = () =>
  new ServiceError(503, undefined, 'admin console not built: run pnpm build', { expose: true });

/**
 * The page's policy: no inline script or style, scripts and styles from this origin only, and the
 * browser may talk to (and be sent by a form to) this origin and the token server only. Its one
 * frame is the silent renewal's: the token server's authorization endpoint, which redirects the
 * frame back to this origin.
 */
export function consoleContentSecurityPolicy(issuer: string): string {
  const tokenServer = new URL(issuer).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${tokenServer}`,
    `form-action 'self' ${tokenServer}`,
    `frame-src 'self' ${tokenServer}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * Where the token server sends the silent renewal's hidden frame: an empty page the console's own
 * pages may frame (and no other site), read by the page that framed it. No script runs in it.
 */
export const SILENT_CALLBACK_POLICY = "default-src 'none'; frame-ancestors 'self'; base-uri 'none'";
const SILENT_CALLBACK_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Session renewal</title></head><body></body></html>';

/** index.html with `<base href>` first in its head, so `./assets/…` resolves from any console path. */
export function withBaseHref(html: string, href: string): string {
  const base = `<base href="${href}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head === null) return `${base}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}${base}${html.slice(at)}`;
}

/** The file's bytes, or undefined when there is no such file (a directory counts as none). */
async function readIfFile(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * The administrators' console (issue 17), built by @catalog/admin-console into `dir`: the page at
 * /console, /console/ and the application's own paths, its hashed assets, and the settings it reads
 * at start. A console that was not built answers 503; the API starts and serves without it.
 */
export function adminConsoleRoutes(
  router: Router<AppState>,
  { guards, config }: RouteDeps,
  { dir }: { readonly dir: string },
): void {
  const consolePath = `${config.basePath}/console`;
  const policy = consoleContentSecurityPolicy(config.tokens.issuer);
  let page: string | undefined;

  const sendPage = async (ctx: RouteContext) => {
    if (page === undefined) {
      const html = await readIfFile(join(dir, 'index.html'));
      if (html === undefined) throw notBuilt();
      page = withBaseHref(html.toString('utf8'), `${consolePath}/`);
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', policy);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  };

  const sendFile = async (ctx: RouteContext, path: string, file: string, cacheControl: string) => {
    const type = CONTENT_TYPES[extname(file).toLowerCase()];
    if (!PLAIN_FILE_NAME.test(file) || type === undefined) throw notFound();
    const bytes = await readIfFile(path);
    if (bytes === undefined) throw notFound();
    ctx.set('Cache-Control', cacheControl);
    ctx.type = type;
    ctx.body = bytes;
  };

  contractRoute(router, guards, 'getAdminConsole', sendPage);
  router.get('getAdminConsole', '/console/', sendPage);

  router.get('getAdminConsoleConfig', '/console/config.json', (ctx) => {
    const issuer = config.tokens.issuer;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      issuer,
      clientId: ADMIN_CLIENT_ID,
      authorizationEndpoint: `${issuer}/oauth2/authorize`,
      endSessionEndpoint: `${issuer}/oauth2/logout`,
      tokenEndpoint: config.tokens.tokenEndpoint,
      apiBaseUrl: publicBaseUrl(ctx, config),
      basePath: config.basePath,
      // For the snippets shown with a new client's secret: they must work when pasted here.
      localCaFile: config.localCaFile ?? null,
    };
  });

  router.get('getAdminConsole', '/console/silent-callback', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', SILENT_CALLBACK_POLICY);
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = SILENT_CALLBACK_PAGE;
  });

  router.get('getAdminConsoleAsset', '/console/assets/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    await sendFile(ctx, join(dir, 'assets', file), file, IMMUTABLE);
  });

  // Any other path: a file at the top of the build (favicon…), else a route of the application
  // itself (/console/clients, /console/callback…), which the page handles.
  router.get('getAdminConsole', '/console/*rest', async (ctx) => {
    const rest = ctx.path.slice(consolePath.length + 1);
    if (rest.startsWith('assets/')) throw notFound();
    if (extname(rest) === '') return sendPage(ctx);
    if (!PLAIN_FILE_NAME.test(rest) || rest === 'index.html') throw notFound();
    await sendFile(ctx, join(dir, rest), rest, 'no-cache');
  });
}
