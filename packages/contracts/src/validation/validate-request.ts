// Runs a compiled request validator: coerces and filters parameters, applies defaults, collects issues.
import type { ErrorObject } from 'ajv';
import { isObject, type JsonObject } from '../openapi-lookup.ts';
import { cloneJson } from './clone-json.ts';
import { coerceParameter } from './coerce.ts';
import type { CompiledRequest, OffsetWindow, ParameterGroup } from './compile-request.ts';
import { codeAlongPath } from './issue-codes.ts';
import { fieldName, fieldPath, firstPerField, reason, valuePath } from './issues.ts';
import type { RequestInput, ValidationIssue, ValidationResult } from './types.ts';

type Issue = ValidationIssue<string>;

/**
 * Declared parameters only (unknown ones are ignored), coerced; `x-ignored-without` honoured. No
 * parameter of the documents is a list, so one sent twice (`q=a&q=b`, which a transport hands over
 * as an array) is refused by name with the default code, not checked against its schema, whose own
 * `x-error-code` (SEARCH_TERM_TOO_LONG) would misname the fault.
 */
function pickParameters(
  document: unknown,
  group: ParameterGroup,
  raw: Readonly<Record<string, unknown>>,
  fallback: string,
  issues: Issue[],
) {
  const picked: Record<string, unknown> = {};
  for (const parameter of group.parameters) {
    const name = String(parameter.name);
    const requires = parameter['x-ignored-without'];
    if (raw[name] === undefined || (typeof requires === 'string' && raw[requires] === undefined)) continue;
    if (Array.isArray(raw[name])) {
      issues.push({ field: name, reason: 'must be given once', code: fallback });
      continue;
    }
    picked[name] = coerceParameter(document, parameter, raw[name]);
  }
  return picked;
}

function parameterIssues(group: ParameterGroup, errors: readonly ErrorObject[], fallback: string): Issue[] {
  const byName = new Map<string, JsonObject>(
    group.parameters.map((parameter) => [String(parameter.name), parameter]),
  );
  return errors.map((error) => {
    const path = fieldPath(error);
    const declared = byName.get(path[0] ?? '')?.['x-error-code'];
    return {
      field: fieldName(path),
      reason: reason(error),
      code: typeof declared === 'string' ? declared : fallback,
    };
  });
}

function validateGroup(
  document: unknown,
  group: ParameterGroup,
  raw: unknown,
  fallback: string,
  issues: Issue[],
) {
  const value = pickParameters(document, group, isObject(raw) ? raw : {}, fallback, issues);
  if (!group.validate(value)) issues.push(...parameterIssues(group, group.validate.errors ?? [], fallback));
  return value;
}

function windowIssue(window: OffsetWindow, query: Readonly<Record<string, unknown>>, code: string): Issue[] {
  const offset = query[window.offsetParameter];
  const size = query[window.sizeParameter];
  if (typeof offset !== 'number' || typeof size !== 'number' || offset + size <= window.max) return [];
  const reason = `${window.offsetParameter} + ${window.sizeParameter} must not exceed ${window.max}; page further with the cursor`;
  return [{ field: window.offsetParameter, reason, code }];
}

function validateBody(
  document: unknown,
  compiled: CompiledRequest,
  body: unknown,
  fallback: string,
  issues: Issue[],
) {
  const part = compiled.body;
  if (part === undefined || body === undefined) {
    if (part?.required)
      issues.push({
        field: 'body',
        reason: 'is required',
        code: codeAlongPath(document, part.schema, [], fallback),
      });
    return body;
  }
  const value = cloneJson(body);
  if (!part.validate(value)) {
    for (const error of part.validate.errors ?? []) {
      const code = codeAlongPath(document, part.schema, valuePath(error), fallback);
      issues.push({ field: fieldName(fieldPath(error)), reason: reason(error), code });
    }
  }
  if (isObject(value))
    for (const name of part.ignoredProperties) delete (value as Record<string, unknown>)[name];
  return value;
}

export function validateRequestWith(
  document: unknown,
  compiled: CompiledRequest,
  input: RequestInput,
  fallback: string,
): ValidationResult<unknown, string> {
  const issues: Issue[] = [];
  const query = validateGroup(document, compiled.query, input.query, fallback, issues);
  const params = validateGroup(document, compiled.path, input.params, fallback, issues);
  if (issues.length === 0 && compiled.offsetWindow)
    issues.push(...windowIssue(compiled.offsetWindow, query, fallback));
  const body = validateBody(document, compiled, input.body, fallback, issues);
  return issues.length === 0
    ? { ok: true, value: { query, params, body } }
    : { ok: false, issues: firstPerField(issues) };
}
