// Turning ajv errors into named fields and readable reasons.
import type { ErrorObject } from 'ajv';

const ROOT_FIELD = 'body';

function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The path of the value that failed (for `required`/`additionalProperties`: of the object holding it). */
export function valuePath(error: ErrorObject): string[] {
  return error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapeSegment);
}

/** The path of the field an issue names: the value path, plus the missing or unexpected property. */
export function fieldPath(error: ErrorObject): string[] {
  const path = valuePath(error);
  const { missingProperty, additionalProperty } = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof missingProperty === 'string') path.push(missingProperty);
  if (error.keyword === 'additionalProperties' && typeof additionalProperty === 'string') {
    path.push(additionalProperty);
  }
  return path;
}

export function fieldName(path: readonly string[]): string {
  return path.length === 0 ? ROOT_FIELD : path.join('.');
}

const plural = (count: unknown, one: string, many: string) => `${String(count)} ${count === 1 ? one : many}`;

export function reason(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'false schema':
      return 'is not allowed';
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return `must be one of: ${allowed.map(String).join(', ')} (got ${JSON.stringify(error.data)})`;
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `must be ${Array.isArray(params.type) ? params.type.join(' or ') : String(params.type)}`;
    case 'minLength':
      return `must be at least ${plural(params.limit, 'character', 'characters')} long`;
    case 'maxLength':
      return `must be at most ${plural(params.limit, 'character', 'characters')} long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'minItems':
      return `must have at least ${plural(params.limit, 'item', 'items')}`;
    case 'maxItems':
      return `must have at most ${plural(params.limit, 'item', 'items')}`;
    case 'minProperties':
      return `must have at least ${plural(params.limit, 'field', 'fields')}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'pattern': {
      // A schema may say what its pattern means (`x-pattern-reason`), which a caller reads better, and
      // which characters it allows at all (`x-allowed-characters`), so the one at fault can be named.
      const schema = error.parentSchema as Record<string, unknown> | undefined;
      const meaning = schema?.['x-pattern-reason'];
      const said = typeof meaning === 'string' ? meaning : `must match the pattern ${String(params.pattern)}`;
      const outside = charactersOutside(error.data, schema?.['x-allowed-characters']);
      return outside.length === 0
        ? said
        : `must not contain ${outside.map(quoteCharacter).join(', ')}: it ${said}`;
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** The distinct characters of `value` outside the class `allowed` (a regular expression's `[…]`), in order. */
export function charactersOutside(value: unknown, allowed: unknown): string[] {
  if (typeof value !== 'string' || typeof allowed !== 'string') return [];
  const inClass = new RegExp(`^${allowed}$`, 'u');
  return [...new Set([...value].filter((character) => !inClass.test(character)))];
}

/** “.”, or the code point of a character that does not show (a tab, a no-break space). */
function quoteCharacter(character: string): string {
  const visible = /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character);
  const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return visible ? `“${character}”` : code;
}

/** Keeps the first issue of each field (one entry per invalid field). */
export function firstPerField<T extends { readonly field: string }>(issues: readonly T[]): T[] {
  const byField = new Map<string, T>();
  for (const issue of issues) if (!byField.has(issue.field)) byField.set(issue.field, issue);
  return [...byField.values()];
}
