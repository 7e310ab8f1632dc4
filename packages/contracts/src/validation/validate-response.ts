// Checks a response body against the document (for tests): the documented response of the status (exact,
// then `2XX`-style range, then `default`), its JSON (or first) media type, in the response view.

import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { deref, isObject, type OperationEntry } from '../openapi-lookup.ts';
import { cloneJson } from './clone-json.ts';
import { fieldName, fieldPath, reason } from './issues.ts';
import { toView } from './schema-views.ts';
import type { ResponseIssue } from './types.ts';

/** The compiled schema of a documented response, `null` when it documents no body, `undefined` when undocumented. */
export type CompiledResponse = ValidateFunction | null | undefined;

export function compileResponse(
  ajv: Ajv2020,
  document: unknown,
  rootId: string,
  entry: OperationEntry,
  status: number,
): CompiledResponse {
  const responses = isObject(entry.operation.responses) ? entry.operation.responses : {};
  const key = [String(status), `${String(status).charAt(0)}XX`, 'default'].find(
    (candidate) => candidate in responses,
  );
  if (key === undefined) return undefined;
  const response = deref(document, responses[key]);
  const content = isObject(response) && isObject(response.content) ? response.content : {};
  const mediaType = 'application/json' in content ? content['application/json'] : Object.values(content)[0];
  if (!isObject(mediaType) || mediaType.schema === undefined) return null;
  return ajv.compile(toView(mediaType.schema, rootId, 'response') as object);
}

export function validateResponseWith(
  compiled: CompiledResponse,
  operationId: string,
  status: number,
  body: unknown,
): ResponseIssue[] {
  if (compiled === undefined)
    return [{ field: 'status', reason: `${status} is not documented for ${operationId}` }];
  if (compiled === null) {
    return body === undefined || body === '' ? [] : [{ field: 'body', reason: 'no body is documented' }];
  }
  if (compiled(cloneJson(body))) return [];
  return (compiled.errors ?? []).map((error) => ({
    field: fieldName(fieldPath(error)),
    reason: reason(error),
  }));
}
