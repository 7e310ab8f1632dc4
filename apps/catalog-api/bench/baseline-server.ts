// The baseline of the API benchmark: the catalog API's own Koa stack (request context, error body,
// rate-limit middleware with the limits off, token verification against the real token server; JSON
// bodies are read per route, and this GET route takes none) answering GET /products/search with a
// precomputed body: the one the real API gave for the same path and query string
// (BASELINE_BODIES_FILE, a JSON object of path → body). The ratio to the real route isolates what
// the store, the search engine and the projection cost.
import { readFile } from 'node:fs/promises';
import { createLogger, listen, requestContext, resolveTls } from '@catalog/server-runtime';
import Router from '@koa/router';
import Koa from 'koa';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { loadCatalogApiConfig } from '../src/config/config.ts';
import type { AppState } from '../src/http/app-state.ts';
import { authenticate } from '../src/http/authenticate.ts';
import { errorBody } from '../src/http/error-body.ts';
import { rateLimits } from '../src/http/rate-limits.ts';
import { MemoryRequestLimiter } from '../src/limits/memory/memory-request-limiter.ts';

const config = loadCatalogApiConfig();
const bodies = new Map(
  Object.entries(
    JSON.parse(await readFile(process.env.BASELINE_BODIES_FILE ?? '', 'utf8')) as Record<string, string>,
  ),
);
const logger = createLogger('catalog-api-baseline', config.logLevel);
const app = new Koa<AppState>();
const router = new Router<AppState>();
router.get('/products/search', authenticate(createTokenVerifier(config.tokens)), (ctx) => {
  const body = bodies.get(ctx.url);
  if (body === undefined) {
    ctx.status = 404;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = body;
});
app.use(requestContext(logger));
app.use(errorBody());
app.use(rateLimits(new MemoryRequestLimiter(config.rateLimits), '/health'));
app.use(router.routes());

const server = await listen({
  handler: app.callback(),
  host: config.host,
  port: config.port,
  tls: await resolveTls(config.transport),
  portVariable: 'CATALOG_API_PORT',
});
logger.info({ port: server.port, url: `https://localhost:${server.port}` }, 'listening');
process.once('SIGTERM', () => void server.close(1000).then(() => process.exit(0)));
