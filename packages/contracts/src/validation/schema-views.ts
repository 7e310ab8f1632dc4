// The document's schemas as ajv sees them: `#/components/schemas/X` references rewritten to a schema root
// (`<rootId>#/$defs/X`), and a request view where read-only properties are no longer required.
import { isObject } from '../openapi-lookup.ts';

const COMPONENT_SCHEMAS = '#/components/schemas/';

export type SchemaView = 'request' | 'response';

export function viewRootId(documentId: string, view: SchemaView): string {
  return `urn:contracts:${documentId}:${view}`;
}

function withoutReadOnlyRequired(node: Record<string, unknown>): Record<string, unknown> {
  const { properties, required } = node;
  if (!isObject(properties) || !Array.isArray(required)) return node;
  const isReadOnly = (name: unknown) =>
    typeof name === 'string' && isObject(properties[name]) && properties[name].readOnly === true;
  return { ...node, required: required.filter((name) => !isReadOnly(name)) };
}

/**
 * A deep copy of `value` whose component-schema references point into the view's root. In the request view,
 * read-only properties are dropped from `required` (OpenAPI: "required applies to the response only").
 */
export function toView(value: unknown, rootId: string, view: SchemaView): unknown {
  if (Array.isArray(value)) return value.map((item) => toView(item, rootId, view));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    copy[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT_SCHEMAS)
        ? `${rootId}#/$defs/${child.slice(COMPONENT_SCHEMAS.length)}`
        : toView(child, rootId, view);
  }
  return view === 'request' ? withoutReadOnlyRequired(copy) : copy;
}

/** The schema root of one view: every component schema under `$defs`. */
export function viewRoot(schemas: unknown, rootId: string, view: SchemaView): Record<string, unknown> {
  return { $id: rootId, $defs: toView(isObject(schemas) ? schemas : {}, rootId, view) };
}
