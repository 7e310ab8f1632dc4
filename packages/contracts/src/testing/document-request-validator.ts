// A request validator built the way a third-party tool (Prism's proxy, express-openapi-validator) builds
// one from a served OpenAPI document: plain JSON Schema 2020-12 with formats, query strings coerced to
// the parameter's type, vendor extensions meaning nothing, and the body schema's `readOnly` properties
// removed (OpenAPI: they "SHOULD NOT be sent"), so `additionalProperties: false` then refuses them. None
// of the service's own validation code is used: a test compares the server's verdicts with this one.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const DOCUMENT_ID = 'https://served.example/openapi.json';

/** A copy of `node` without the `readOnly` properties of any object schema (nor their `required`). */
function withoutReadOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutReadOnly);
  if (!isObject(node)) return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) copy[key] = withoutReadOnly(value);
  if (isObject(copy.properties)) {
    const properties = copy.properties;
    const readOnly = Object.keys(properties).filter(
      (name) => isObject(properties[name]) && properties[name].readOnly === true,
    );
    for (const name of readOnly) delete properties[name];
    if (Array.isArray(copy.required))
      copy.required = copy.required.filter((name) => !readOnly.includes(String(name)));
  }
  return copy;
}

export interface DocumentRequest {
  readonly method: string;
  /** The path template of the document (`/brands/{id}`). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Request headers by name, any case. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface DocumentRequestValidator {
  /** The reasons the document refuses the request (empty when it accepts it). */
  problems(request: DocumentRequest): string[];
}

export function documentRequestValidator(document: unknown): DocumentRequestValidator {
  if (!isObject(document) || !isObject(document.paths)) throw new Error('not an OpenAPI document');
  // The body's schemas in the request view of such tools; parameters keep theirs (no readOnly there).
  const requestView = { $id: DOCUMENT_ID, ...(withoutReadOnly(document) as Json) };
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true, validateFormats: true });
  addFormatsModule.default(ajv);
  ajv.addSchema(requestView);
  const paths = document.paths;

  const resolve = (value: unknown): Json => {
    let node = value;
    while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, segment) => (isObject(at) ? at[segment] : undefined), document);
    }
    return isObject(node) ? node : {};
  };
  const pointer = (segments: readonly (string | number)[]) =>
    `${DOCUMENT_ID}#/${segments.map((segment) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const accepts = (schemaPointer: string, value: unknown): string[] => {
    const validate = ajv.compile({ type: 'object', properties: { value: { $ref: schemaPointer } } });
    if (validate({ value })) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? 'is invalid'}`);
  };

  return {
    problems({ method, path, query = {}, headers = {}, body }) {
      const item = paths[path];
      const operation = isObject(item) ? item[method.toLowerCase()] : undefined;
      if (!isObject(operation)) return [`no operation ${method} ${path}`];
      const problems: string[] = [];
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const sentHeaders = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
      parameters.forEach((reference, index) => {
        const parameter = resolve(reference);
        if (parameter.in === 'header') {
          const name = String(parameter.name);
          if (parameter.required === true && !sentHeaders.has(name.toLowerCase()))
            problems.push(`header ${name} is required`);
          return;
        }
        if (parameter.in !== 'query') return;
        const name = String(parameter.name);
        const value = query[name];
        if (value === undefined) {
          if (parameter.required === true) problems.push(`query ${name} is required`);
          return;
        }
        // The parameter's own location, so that its schema's references resolve in the document.
        const at =
          isObject(reference) && typeof reference.$ref === 'string'
            ? `${DOCUMENT_ID}${reference.$ref}/schema`
            : pointer(['paths', path, method.toLowerCase(), 'parameters', index, 'schema']);
        for (const problem of accepts(at, value)) problems.push(`query ${name}${problem}`);
      });
      const requestBody = resolve(operation.requestBody);
      // The body's one media type: application/json, or application/merge-patch+json for a PATCH.
      const mediaType = isObject(requestBody.content) ? Object.keys(requestBody.content)[0] : undefined;
      const content =
        mediaType !== undefined && isObject(requestBody.content) ? requestBody.content[mediaType] : undefined;
      if (isObject(content) && isObject(content.schema)) {
        if (body === undefined) {
          if (requestBody.required === true) problems.push('body is required');
        } else {
          const reference = operation.requestBody;
          const at =
            isObject(reference) && typeof reference.$ref === 'string'
              ? `${DOCUMENT_ID}${reference.$ref}/content/${String(mediaType).replaceAll('/', '~1')}/schema`
              : pointer([
                  'paths',
                  path,
                  method.toLowerCase(),
                  'requestBody',
                  'content',
                  String(mediaType),
                  'schema',
                ]);
          for (const problem of accepts(at, body)) problems.push(`body${problem}`);
        }
      }
      return problems;
    },
  };
}
