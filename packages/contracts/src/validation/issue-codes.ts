// Which contract code an invalid value gets: the nearest `x-error-code` on the way from the parameter or the
// body schema to the value, else the document's `x-default-error-code`.
import { deref, isObject } from '../openapi-lookup.ts';

const CODE = 'x-error-code';

export function defaultErrorCode(document: unknown): string {
  const code = isObject(document) ? document['x-default-error-code'] : undefined;
  if (typeof code !== 'string') throw new Error('The document declares no x-default-error-code');
  return code;
}

function childSchema(document: unknown, schema: unknown, segment: string): unknown {
  const node = deref(document, schema);
  if (!isObject(node)) return undefined;
  if (isObject(node.properties) && segment in node.properties) return node.properties[segment];
  if (/^\d+$/.test(segment) && node.items !== undefined) return node.items;
  return isObject(node.additionalProperties) ? node.additionalProperties : undefined;
}

/** The deepest `x-error-code` along `path` from `schema` (references followed), or `fallback`. */
export function codeAlongPath(
  document: unknown,
  schema: unknown,
  path: readonly string[],
  fallback: string,
): string {
  let code = fallback;
  let node: unknown = schema;
  for (let depth = 0; node !== undefined; depth += 1) {
    for (const candidate of [node, deref(document, node)]) {
      if (isObject(candidate) && typeof candidate[CODE] === 'string') code = candidate[CODE];
    }
    const segment = path[depth];
    if (segment === undefined) break;
    node = childSchema(document, node, segment);
  }
  return code;
}
