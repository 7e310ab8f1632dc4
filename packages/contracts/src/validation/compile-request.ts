// Compiles what a request validator needs for one operation: a schema per parameter location (the
// parameters as properties of one object) and the request body schema, all in the request view.

import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { deref, isObject, type JsonObject, type OperationEntry } from '../openapi-lookup.ts';
import { toView } from './schema-views.ts';

export interface ParameterGroup {
  readonly validate: ValidateFunction;
  readonly parameters: readonly JsonObject[];
}

export interface BodyPart {
  readonly validate: ValidateFunction;
  /** The body schema as the document writes it (for `x-error-code` lookups). */
  readonly schema: unknown;
  readonly required: boolean;
  /**
   * Top-level server-set properties, `readOnly` or `x-ignored-when-sent` (a write schema's way of
   * accepting a record as reads show it): accepted when sent, then dropped from the value.
   */
  readonly ignoredProperties: readonly string[];
}

/** `x-offset-window` of an operation: offset + size must not exceed `max`. */
export interface OffsetWindow {
  readonly max: number;
  readonly offsetParameter: string;
  readonly sizeParameter: string;
}

export interface CompiledRequest {
  readonly query: ParameterGroup;
  readonly path: ParameterGroup;
  readonly body: BodyPart | undefined;
  readonly offsetWindow: OffsetWindow | undefined;
}

function compileGroup(ajv: Ajv2020, rootId: string, entry: OperationEntry, location: string): ParameterGroup {
  const parameters = entry.parameters.filter((parameter) => parameter.in === location);
  const properties: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const schema = toView(parameter.schema ?? {}, rootId, 'request') as JsonObject;
    // A parameter consulted only beside another (`x-ignored-without`) documents any value in its schema,
    // as a validator of the document sees it alone; the server, which picks it only when consulted,
    // checks it against `x-consulted-schema` as well.
    const consulted = parameter['x-consulted-schema'];
    properties[String(parameter.name)] =
      consulted === undefined ? schema : { ...schema, allOf: [toView(consulted, rootId, 'request')] };
  }
  const required = parameters
    .filter((parameter) => parameter.required === true)
    .map((parameter) => parameter.name);
  return { validate: ajv.compile({ type: 'object', properties, required }), parameters };
}

function compileBody(
  ajv: Ajv2020,
  document: unknown,
  rootId: string,
  entry: OperationEntry,
): BodyPart | undefined {
  const requestBody = deref(document, entry.operation.requestBody);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const content = requestBody.content;
  const mediaType = 'application/json' in content ? content['application/json'] : Object.values(content)[0];
  const schema = isObject(mediaType) ? mediaType.schema : undefined;
  if (schema === undefined) return undefined;
  const validate = ajv.compile(toView(schema, rootId, 'request') as object);
  return {
    validate,
    schema,
    required: requestBody.required === true,
    ignoredProperties: ignoredProperties(document, schema),
  };
}

function ignoredProperties(document: unknown, schema: unknown): string[] {
  const resolved = deref(document, schema);
  const properties = isObject(resolved) && isObject(resolved.properties) ? resolved.properties : {};
  return Object.entries(properties)
    .filter(
      ([, property]) =>
        isObject(property) && (property.readOnly === true || property['x-ignored-when-sent'] === true),
    )
    .map(([name]) => name);
}

function offsetWindow(operation: JsonObject): OffsetWindow | undefined {
  const window = operation['x-offset-window'];
  if (!isObject(window)) return undefined;
  const { max, offsetParameter, sizeParameter } = window;
  if (typeof max !== 'number' || typeof offsetParameter !== 'string' || typeof sizeParameter !== 'string') {
    throw new Error(`Malformed x-offset-window on ${String(operation.operationId)}`);
  }
  return { max, offsetParameter, sizeParameter };
}

export function compileRequest(
  ajv: Ajv2020,
  document: unknown,
  rootId: string,
  entry: OperationEntry,
): CompiledRequest {
  return {
    query: compileGroup(ajv, rootId, entry, 'query'),
    path: compileGroup(ajv, rootId, entry, 'path'),
    body: compileBody(ajv, document, rootId, entry),
    offsetWindow: offsetWindow(entry.operation),
  };
}
