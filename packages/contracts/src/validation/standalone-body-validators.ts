// Request-body validators as JavaScript source (ajv's standalone code), for a page in the browser that
// checks a form against the very schema the API checks it with before sending it. Compiled at build
// time: ajv compiles schemas at run time with `new Function`, which a Content-Security-Policy without
// 'unsafe-eval' forbids, and its standalone output is plain code.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { catalogApiDocument } from '../documents.ts';
import { deref, isObject, listOperations } from '../openapi-lookup.ts';
import { createAjv } from './create-ajv.ts';
import { toView, viewRootId } from './schema-views.ts';

type StandaloneCode = (ajv: Ajv2020, refs: Record<string, string>) => string;
// A CommonJS module: Node hands over its exports object, a bundler its default export.
const standaloneModule: unknown = standaloneCodeModule;
const standaloneCode = (
  typeof standaloneModule === 'function'
    ? standaloneModule
    : (standaloneModule as { default: unknown }).default
) as StandaloneCode;
const DOCUMENT_ID = 'catalog-api';

/**
 * An ES module exporting one validator per operationId (named after it) of the catalog API's request
 * body of that operation, its errors in `validate.errors` with `parentSchema`, as the API sees them.
 */
export function standaloneBodyValidators(operationIds: readonly string[]): string {
  const ajv = createAjv(catalogApiDocument, DOCUMENT_ID, { source: true, esm: true });
  const operations = listOperations(catalogApiDocument);
  const rootId = viewRootId(DOCUMENT_ID, 'request');
  const exports: Record<string, string> = {};
  for (const operationId of operationIds) {
    const entry = operations.get(operationId);
    const requestBody = deref(catalogApiDocument, entry?.operation.requestBody);
    const content = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content : {};
    const json = content['application/json'];
    if (!isObject(json) || json.schema === undefined)
      throw new Error(`${operationId} has no application/json request body in the catalog API document`);
    const id = `urn:contracts:${DOCUMENT_ID}:body:${operationId}`;
    ajv.addSchema({ $id: id, ...(toView(json.schema, rootId, 'request') as object) });
    exports[operationId] = id;
  }
  return asEsModule(standaloneCode(ajv, exports));
}

const RUNTIME_REQUIRE = /require\("(ajv\/dist\/runtime\/[a-z0-9]+)"\)/g;

/**
 * ajv's ES module output still `require`s its run-time helpers (ucs2length counts characters as the
 * API does, by code point): imported instead, whichever way the bundler hands a CommonJS module over.
 */
function asEsModule(source: string): string {
  const imports: string[] = [];
  const body = source.replace(RUNTIME_REQUIRE, (_call, path: string) => {
    const name = `ajvRuntime${imports.length}`;
    imports.push(`import ${name} from "${path}.js";`);
    return `{ default: ${name}.default ?? ${name} }`;
  });
  if (/\brequire\(/.test(body))
    throw new Error('ajv standalone code requires a module this build cannot import');
  return `${imports.join('\n')}\n${body}`;
}
