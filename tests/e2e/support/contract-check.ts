// What every answer of the bad-input suites must satisfy, whatever was sent: no 5xx, the body the
// document gives for that operation and status, no `data` in an error body (spec 4.4 step 5, 7.2), and
// the X-Request-Id header the document makes required.
import {
  type CatalogOperationId,
  catalogApiDocument,
  validateAuthServerResponse,
  validateResponse,
} from '@catalog/contracts';
import type { RawAnswer } from './raw-http.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function commonProblems(answer: RawAnswer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status} (a 5xx)`);
  if (answer.status >= 400 && isObject(answer.body) && 'data' in answer.body) {
    problems.push('an error body contains `data`');
  }
  return problems;
}

/** Problems of an answer of the catalog API to `operationId` (empty when it conforms). */
export function catalogReplyProblems(operationId: CatalogOperationId, answer: RawAnswer): string[] {
  const problems = commonProblems(answer);
  for (const issue of validateResponse(operationId, answer.status, answer.body)) {
    problems.push(`document: ${issue.field} ${issue.reason}`);
  }
  if (typeof answer.headers['x-request-id'] !== 'string') problems.push('no X-Request-Id header');
  return problems;
}

/** Problems of an answer of the token server's token endpoint. */
export function tokenReplyProblems(answer: RawAnswer): string[] {
  const problems = commonProblems(answer);
  for (const issue of validateAuthServerResponse('issueToken', answer.status, answer.body)) {
    problems.push(`document: ${issue.field} ${issue.reason}`);
  }
  return problems;
}

export interface QueryParameter {
  readonly name: string;
  readonly schema: Record<string, unknown>;
}

/** An operation's documented query parameters, references resolved. */
export function queryParameters(path: string, method: string): QueryParameter[] {
  const document = catalogApiDocument as unknown as Record<string, unknown>;
  const resolve = (value: unknown): unknown => {
    let node = value;
    while (isObject(node) && typeof node.$ref === 'string') {
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, segment) => (isObject(at) ? at[segment] : undefined), document);
    }
    return node;
  };
  const paths = document.paths as Record<string, Record<string, { parameters?: unknown[] }>>;
  const parameters = paths[path]?.[method.toLowerCase()]?.parameters ?? [];
  return parameters
    .map(resolve)
    .filter(isObject)
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({
      name: String(parameter.name),
      schema: (resolve(parameter.schema) ?? {}) as never,
    }));
}

/** Whether the operation documents a request body. */
export function takesBody(path: string, method: string): boolean {
  const paths = catalogApiDocument.paths as unknown as Record<
    string,
    Record<string, { requestBody?: unknown }>
  >;
  return paths[path]?.[method.toLowerCase()]?.requestBody !== undefined;
}
