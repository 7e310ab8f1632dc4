import {
  type CatalogOperationId,
  type CatalogRequest,
  catalogApiDocument,
  catalogOperation,
  ServiceError,
  type ValidationIssue,
  validateRequest,
} from '@catalog/contracts';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';
import { authorize } from './authorize.ts';
import { readJsonBody } from './json-body.ts';
import { invalidRequest } from './validation-error.ts';

export type RouteContext = RouterContext<AppState>;

export interface RouteGuards {
  readonly authenticate: Middleware<AppState>;
  readonly checkClientStatus: Middleware<AppState>;
}

export interface RouteOptions {
  /** Turns validation issues into the error this route answers with (default: invalidRequest). */
  readonly onInvalid?: (issues: readonly ValidationIssue[], body: unknown) => Error;
  /** Set before anything can fail, for routes whose errors have their own shape. */
  readonly errorStyle?: 'code';
}

/** `/products/{productId}` → `/products/:productId` */
const routerPath = (template: string) => template.replaceAll(/\{([^}]+)\}/g, ':$1');

const hasBody = (ctx: RouteContext) =>
  Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';

interface DocumentedBody {
  readonly content?: Record<string, unknown>;
  readonly $ref?: string;
}

/**
 * The media types the document gives the operation's request body (application/json, or
 * application/merge-patch+json for a PATCH); empty for an operation that takes none, which ignores
 * any body sent.
 */
function bodyMediaTypes(path: string, method: string): readonly string[] {
  const document = catalogApiDocument as unknown as {
    paths: Record<string, Record<string, { requestBody?: DocumentedBody }>>;
    components: { requestBodies: Record<string, DocumentedBody> };
  };
  let body = document.paths[path]?.[method.toLowerCase()]?.requestBody;
  if (body?.$ref !== undefined) body = document.components.requestBodies[body.$ref.split('/').at(-1) ?? ''];
  return body === undefined ? [] : Object.keys(body.content ?? { 'application/json': {} });
}

/**
 * Registers an operation of the contract: its method and path come from the document, then the
 * caller is authenticated and authorised by the operation's `security`, the request is validated with
 * the document's schemas (defaults applied), and the handler receives the typed, validated request.
 */
export function contractRoute<Id extends CatalogOperationId>(
  router: Router<AppState>,
  guards: RouteGuards,
  operationId: Id,
  handler: (ctx: RouteContext, request: CatalogRequest<Id>) => Promise<void> | void,
  options: RouteOptions = {},
): void {
  const operation = catalogOperation(operationId);
  const markStyle: Middleware<AppState> = async (ctx, next) => {
    if (options.errorStyle) ctx.state.errorStyle = options.errorStyle;
    return next();
  };
  const identify: Middleware<AppState>[] =
    operation.access.kind === 'public' ? [] : [guards.authenticate, guards.checkClientStatus];
  const mediaTypes = bodyMediaTypes(operation.path, operation.method);
  const withBody = mediaTypes.length > 0;
  const handle = async (ctx: RouteContext) => {
    // The body is read only once the caller may call the route, and only by routes that take one.
    if (withBody && hasBody(ctx) && !ctx.is(...mediaTypes)) {
      throw new ServiceError(415, undefined, `Send the request body as ${mediaTypes.join(' or ')}`);
    }
    const bodyIssue = withBody ? await readJsonBody(ctx) : undefined;
    const onInvalid = options.onInvalid ?? invalidRequest;
    if (bodyIssue !== undefined) throw onInvalid([bodyIssue], undefined);
    const result = validateRequest(operationId, {
      query: ctx.query,
      params: ctx.params,
      body: withBody ? ctx.request.body : undefined,
    });
    if (!result.ok) throw onInvalid(result.issues, ctx.request.body);
    await handler(ctx, result.value as CatalogRequest<Id>);
  };
  router.register(
    routerPath(operation.path),
    [operation.method],
    [markStyle, ...identify, authorize(operation.access), handle] as Parameters<typeof router.register>[2],
    { name: operationId },
  );
}
