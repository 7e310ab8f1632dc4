// The validators of one document: request validators per operationId and a response validator, compiled
// lazily on first use and cached.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { listOperations, type OperationEntry } from '../openapi-lookup.ts';
import { type CompiledRequest, compileRequest } from './compile-request.ts';
import { createAjv } from './create-ajv.ts';
import { defaultErrorCode } from './issue-codes.ts';
import type { ValidRequest } from './request-types.ts';
import { viewRootId } from './schema-views.ts';
import type { RequestInput, ResponseIssue, ValidationResult } from './types.ts';
import { validateRequestWith } from './validate-request.ts';
import { type CompiledResponse, compileResponse, validateResponseWith } from './validate-response.ts';

export type RequestValidator<Value, Code extends string> = (
  input: RequestInput,
) => ValidationResult<Value, Code>;

export type RequestValidators<Doc, Operations, Code extends string> = {
  readonly [Id in keyof Operations & string]: RequestValidator<ValidRequest<Doc, Operations, Id>, Code>;
};

export interface ContractValidators<Doc, Operations, Code extends string> {
  /** Validates `{ query, params, body }` of an operation; on success `value` holds the typed, defaulted request. */
  readonly validateRequest: <Id extends keyof Operations & string>(
    operationId: Id,
    input: RequestInput,
  ) => ValidationResult<ValidRequest<Doc, Operations, Id>, Code>;
  /** The same, one function per operationId. */
  readonly requestValidators: RequestValidators<Doc, Operations, Code>;
  /** Issues of a response body against the documented response of `status` (empty when it conforms). */
  readonly validateResponse: (
    operationId: keyof Operations & string,
    status: number,
    body: unknown,
  ) => ResponseIssue[];
  /** The ajv instance (created on first use), for tests. */
  readonly ajv: () => Ajv2020;
}

export function createContractValidators<Doc, Operations, Code extends string>(
  document: Doc,
  documentId: string,
): ContractValidators<Doc, Operations, Code> {
  const operations = listOperations(document);
  const fallback = defaultErrorCode(document);
  let ajvInstance: Ajv2020 | undefined;
  const requests = new Map<string, CompiledRequest>();
  const responses = new Map<string, CompiledResponse>();

  const ajv = () => {
    ajvInstance ??= createAjv(document, documentId);
    return ajvInstance;
  };
  const entryOf = (operationId: string): OperationEntry => {
    const entry = operations.get(operationId);
    if (!entry) throw new Error(`Unknown operationId ${operationId} in ${documentId}`);
    return entry;
  };
  const compiledRequest = (operationId: string) => {
    let compiled = requests.get(operationId);
    if (!compiled) {
      compiled = compileRequest(ajv(), document, viewRootId(documentId, 'request'), entryOf(operationId));
      requests.set(operationId, compiled);
    }
    return compiled;
  };

  const validateRequest = <Id extends keyof Operations & string>(operationId: Id, input: RequestInput) =>
    validateRequestWith(document, compiledRequest(operationId), input, fallback) as ValidationResult<
      ValidRequest<Doc, Operations, Id>,
      Code
    >;

  const validateResponse = (operationId: keyof Operations & string, status: number, body: unknown) => {
    const key = `${operationId} ${status}`;
    if (!responses.has(key)) {
      const rootId = viewRootId(documentId, 'response');
      responses.set(key, compileResponse(ajv(), document, rootId, entryOf(operationId), status));
    }
    return validateResponseWith(responses.get(key), operationId, status, body);
  };

  const requestValidators = Object.fromEntries(
    [...operations.keys()].map((operationId) => [
      operationId,
      (input: RequestInput) => validateRequest(operationId as keyof Operations & string, input),
    ]),
  ) as RequestValidators<Doc, Operations, Code>;

  return { validateRequest, requestValidators, validateResponse, ajv };
}
