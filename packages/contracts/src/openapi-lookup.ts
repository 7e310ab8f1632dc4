// Reading an OpenAPI document object at runtime: local `$ref`s and operations by operationId.

export type JsonObject = { readonly [key: string]: unknown };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unescapePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value a local reference (`#/components/...`) points at. Throws when it points at nothing. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, got ${ref}`);
  let node: unknown = document;
  for (const segment of ref.slice(2).split('/').map(unescapePointerSegment)) {
    if (!isObject(node) || !(segment in node)) throw new Error(`Unresolvable reference ${ref}`);
    node = node[segment];
  }
  return node;
}

/** Follows `$ref` chains until a value that is not a reference. */
export function deref(document: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops += 1) {
    if (hops > 32) throw new Error(`Reference cycle at ${node.$ref}`);
    node = resolvePointer(document, node.$ref);
  }
  return node;
}

export interface OperationEntry {
  readonly operationId: string;
  readonly path: string;
  readonly method: (typeof HTTP_METHODS)[number];
  readonly operation: JsonObject;
  /** Path-level and operation-level parameters, references resolved (operation-level ones win). */
  readonly parameters: readonly JsonObject[];
}

function parameterList(document: unknown, value: unknown): JsonObject[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => deref(document, entry)).filter(isObject);
}

function mergeParameters(pathLevel: JsonObject[], operationLevel: JsonObject[]): JsonObject[] {
  const key = (parameter: JsonObject) => `${String(parameter.in)}:${String(parameter.name)}`;
  const overridden = new Set(operationLevel.map(key));
  return [...pathLevel.filter((parameter) => !overridden.has(key(parameter))), ...operationLevel];
}

/** Every operation of the document, keyed by operationId. */
export function listOperations(document: unknown): Map<string, OperationEntry> {
  const operations = new Map<string, OperationEntry>();
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(document, rawItem);
    if (!isObject(item)) continue;
    const pathParameters = parameterList(document, item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const parameters = mergeParameters(pathParameters, parameterList(document, operation.parameters));
      operations.set(operation.operationId, {
        operationId: operation.operationId,
        path,
        method,
        operation,
        parameters,
      });
    }
  }
  return operations;
}

/** The property names of an object literal, typed as its keys. */
export function keysOf<T extends object>(value: T): (keyof T & string)[] {
  return Object.keys(value) as (keyof T & string)[];
}
