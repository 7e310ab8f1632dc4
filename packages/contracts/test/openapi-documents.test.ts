import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { authServerDocument, catalogApiDocument } from '../src/index.ts';
import { deref, isObject, listOperations, resolvePointer } from '../src/openapi-lookup.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const documents = { 'catalog-api': catalogApiDocument, 'auth-server': authServerDocument } as const;

function collectRefs(node: unknown, refs: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, refs);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value);
      else collectRefs(value, refs);
    }
  }
  return refs;
}

const catalogOperations = [...listOperations(catalogApiDocument).values()];

function responsesOf(operationId: string) {
  const entry = catalogOperations.find((operation) => operation.operationId === operationId);
  return (entry?.operation.responses ?? {}) as Record<string, unknown>;
}

describe('the documents are valid OpenAPI 3.1', () => {
  for (const api of Object.keys(documents)) {
    it(`${api}: redocly lint (recommended ruleset) reports no error and no warning`, async () => {
      const redocly = join(packageDir, 'node_modules', '.bin', 'redocly');
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const { stdout } = await promisify(execFile)(
        redocly,
        ['lint', api, '--config', 'redocly.yaml', '--format', 'json'],
        {
          cwd: packageDir,
          env,
        },
      );
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number } };
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    });
  }

  for (const [name, document] of Object.entries(documents)) {
    it(`${name}: declares openapi 3.1.0 and every $ref resolves`, () => {
      expect(document.openapi).toBe('3.1.0');
      for (const ref of collectRefs(document)) expect(() => resolvePointer(document, ref), ref).not.toThrow();
    });

    it(`${name}: every operation has a unique operationId, a summary, security and a 4xx response`, () => {
      const operations = [...listOperations(document).values()];
      for (const { operationId, operation } of operations) {
        expect(operation.summary, operationId).toBeTypeOf('string');
        expect(Array.isArray(operation.security), operationId).toBe(true);
        expect(
          Object.keys(operation.responses ?? {}).some((status) => status.startsWith('4')),
          operationId,
        ).toBe(true);
      }
    });
  }
});

describe('catalog API document rules', () => {
  it('every response documents X-Request-Id, and every 429 Retry-After', () => {
    for (const { operationId, operation } of catalogOperations) {
      for (const [status, raw] of Object.entries(operation.responses as Record<string, unknown>)) {
        const response = deref(catalogApiDocument, raw) as { headers?: Record<string, unknown> };
        expect(Object.keys(response.headers ?? {}), `${operationId} ${status}`).toContain('X-Request-Id');
        if (status === '429') expect(Object.keys(response.headers ?? {})).toContain('Retry-After');
      }
    }
  });

  it('spec 5.4: read routes need products.read or brands.read (or an admin ID token)', () => {
    const scopes = (operationId: string) =>
      catalogOperations.find((operation) => operation.operationId === operationId)?.operation.security;
    for (const id of ['searchProducts', 'getProduct', 'listProducts']) {
      expect(scopes(id)).toEqual([{ m2mAccessToken: ['crm-api/products.read'] }, { adminIdToken: [] }]);
    }
    for (const id of ['listBrands', 'searchBrands', 'getBrand']) {
      expect(scopes(id)).toEqual([{ m2mAccessToken: ['crm-api/brands.read'] }, { adminIdToken: [] }]);
    }
  });

  it('spec 4.1: denied routes and every write accept only the admin ID token and document 403', () => {
    const denied = [
      'getBrandsOverview',
      'findExistingProductsForPreview',
      'batchGetProducts',
      'checkDuplicateProducts',
    ];
    const writes = catalogOperations
      .filter(({ path, method }) => /^\/(products|brands)/.test(path) && method !== 'get')
      .map(({ operationId }) => operationId);
    expect(writes).toEqual(expect.arrayContaining(denied.slice(1)));
    for (const id of [...denied, ...writes]) {
      const entry = catalogOperations.find((operation) => operation.operationId === id);
      expect(entry?.operation.security, id).toEqual([{ adminIdToken: [] }]);
      expect(Object.keys(responsesOf(id)), id).toContain('403');
    }
  });

  it('spec 4.2: client management accepts only the admin ID token', () => {
    for (const { path, operation } of catalogOperations.filter(({ path }) =>
      path.startsWith('/oauth/clients'),
    )) {
      expect(operation.security, path).toEqual([{ adminIdToken: [] }]);
    }
  });

  it('decisions: /clients* answers 403 to M2M tokens and 404 to admins, never 2xx', () => {
    const clients = catalogOperations.filter(
      ({ path }) => path === '/clients' || path.startsWith('/clients/'),
    );
    expect(clients.map(({ method }) => method)).toEqual([
      'get',
      'put',
      'post',
      'delete',
      'patch',
      'get',
      'put',
      'post',
      'delete',
      'patch',
    ]);
    for (const { operationId } of clients)
      expect(Object.keys(responsesOf(operationId))).toEqual(['401', '403', '404', '429']);
  });

  it('GET /products is deprecated and announces it in a Deprecation header', () => {
    const list = catalogApiDocument.paths['/products'].get;
    expect(list.deprecated).toBe(true);
    expect(Object.keys(list.responses['200'].headers)).toContain('Deprecation');
  });

  it('health, openapi.json and docs need no credentials', () => {
    for (const path of ['/health', '/openapi.json', '/docs'] as const) {
      expect(catalogApiDocument.paths[path].get.security).toEqual([]);
    }
  });

  it('no error body schema declares a data property, and the gateway body has only message', () => {
    const schemas = catalogApiDocument.components.schemas;
    for (const name of [
      'ErrorBody',
      'InternalErrorBody',
      'GatewayErrorBody',
      'BrandSearchErrorBody',
      'ClientValidationErrorBody',
    ] as const) {
      expect(Object.keys(schemas[name].properties), name).not.toContain('data');
      expect(schemas[name].additionalProperties, name).toBe(false);
      expect(schemas[name].required, name).toContain('message');
    }
    expect(Object.keys(schemas.GatewayErrorBody.properties)).toEqual(['message']);
    expect(Object.keys(schemas.InternalErrorBody.properties)).not.toContain('error');
  });

  it('the M2M security scheme is client credentials at the token server, with the four prefixed scopes', () => {
    const scheme = catalogApiDocument.components.securitySchemes.m2mAccessToken;
    expect(scheme.flows.clientCredentials.tokenUrl).toBe('https://localhost:4000/oauth2/token');
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).toEqual([
      'crm-api/products.read',
      'crm-api/products.write',
      'crm-api/brands.read',
      'crm-api/brands.write',
    ]);
  });
});

describe('token server document rules', () => {
  it('spec 4.3: the token request is a form with grant_type client_credentials, client_id, client_secret, scope', () => {
    const post = authServerDocument.paths['/oauth2/token'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    const request = authServerDocument.components.schemas.TokenRequest;
    expect(Object.keys(request.properties)).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
    expect(request.properties.grant_type.enum).toEqual(['client_credentials']);
  });

  it('spec 2.5 and 7.4: the token response and the 400 error codes', () => {
    const schemas = authServerDocument.components.schemas;
    expect(schemas.TokenResponse.required).toEqual(['access_token', 'token_type', 'expires_in']);
    expect(schemas.TokenResponse.properties.token_type.enum).toEqual(['Bearer']);
    expect(schemas.TokenErrorCode.enum).toEqual([
      'invalid_client',
      'invalid_scope',
      'invalid_grant',
      'unsupported_grant_type',
      'invalid_request',
    ]);
  });
});
