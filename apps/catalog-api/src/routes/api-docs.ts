import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { catalogApiDocument } from '@catalog/contracts';
import type Router from '@koa/router';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { publicBaseUrl } from '../http/public-base-url.ts';
import type { RouteDeps } from './route-deps.ts';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const docsPage = (basePath: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Catalog service API</title>
  <link rel="stylesheet" href="${basePath}/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="api"></div>
  <script src="${basePath}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${basePath}/docs/assets/start.js"></script>
</body>
</html>
`;

const startScript = (basePath: string) =>
  `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${basePath}/openapi.json`)}, dom_id: '#api', deepLinking: true });\n`;

/** The contract served to machines at /openapi.json and rendered for people at /docs (no token needed). */
export function apiDocsRoutes(router: Router<AppState>, { guards, config }: RouteDeps): void {
  const { basePath } = config;

  contractRoute(router, guards, 'getOpenApiDocument', (ctx) => {
    ctx.body = {
      ...catalogApiDocument,
      servers: [{ url: publicBaseUrl(ctx, config), description: 'This deployment' }],
    };
  });

  contractRoute(router, guards, 'getApiReference', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    );
    ctx.body = docsPage(basePath);
  });

  router.get('getApiReferenceAsset', '/docs/assets/:file', async (ctx) => {
    const { file } = ctx.params;
    if (file === 'start.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = startScript(basePath);
      return;
    }
    const type = file === undefined ? undefined : ASSETS[file];
    if (file === undefined || type === undefined) return;
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(join(swaggerUiDir, file));
  });
}
