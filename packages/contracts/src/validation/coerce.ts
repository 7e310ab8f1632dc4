// Query and path values arrive as strings: convert those of parameters declared as numbers or booleans.
import { deref, isObject, type JsonObject } from '../openapi-lookup.ts';

const NUMBER = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;

function declaredTypes(document: unknown, parameter: JsonObject): string[] {
  const schema = deref(document, parameter.schema);
  if (!isObject(schema)) return [];
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((type) => typeof type === 'string') : [];
}

export function coerceParameter(document: unknown, parameter: JsonObject, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const types = declaredTypes(document, parameter);
  if ((types.includes('integer') || types.includes('number')) && NUMBER.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
