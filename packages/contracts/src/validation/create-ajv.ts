// The ajv instance of one document: JSON Schema 2020-12 in strict mode, formats, the document's vendor
// keywords, and one schema root per view (request, response).
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { CodeOptions } from 'ajv/dist/core.js';
import addFormatsModule from 'ajv-formats';
import { isObject } from '../openapi-lookup.ts';
import { type SchemaView, viewRoot, viewRootId } from './schema-views.ts';

/** Vendor extensions the documents use inside schemas (annotations: they validate nothing). */
export const SCHEMA_VENDOR_KEYWORDS = [
  'x-error-code',
  'x-http-status',
  'x-enum-descriptions',
  'x-pattern-reason',
  'x-allowed-characters',
  'x-ignored-when-sent',
] as const;

const addFormats = addFormatsModule.default;

/** `code`: ajv's code options, e.g. `{ source: true, esm: true }` to emit standalone validators. */
export function createAjv(document: unknown, documentId: string, code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({
    ...(code === undefined ? {} : { code }),
    strict: true,
    strictTypes: true,
    allErrors: true,
    useDefaults: true,
    allowUnionTypes: true,
    verbose: true,
  });
  addFormats(ajv);
  for (const keyword of SCHEMA_VENDOR_KEYWORDS) ajv.addKeyword({ keyword });
  const schemas = isObject(document) && isObject(document.components) ? document.components.schemas : {};
  for (const view of ['request', 'response'] as const satisfies readonly SchemaView[]) {
    const rootId = viewRootId(documentId, view);
    ajv.addSchema(viewRoot(schemas, rootId, view));
  }
  return ajv;
}
