import { describe, expect, it } from 'vitest';
import { authServerAjv, authServerDocument, catalogApiAjv, catalogApiDocument } from '../src/index.ts';
import { viewRootId } from '../src/validation/schema-views.ts';

const cases = [
  { name: 'catalog-api', ajv: catalogApiAjv, document: catalogApiDocument },
  { name: 'auth-server', ajv: authServerAjv, document: authServerDocument },
] as const;

describe('ajv strict mode (JSON Schema 2020-12) accepts every schema of the documents', () => {
  for (const { name, ajv, document } of cases) {
    it(`${name}: every component schema compiles in both views`, () => {
      for (const view of ['request', 'response'] as const) {
        for (const schema of Object.keys(document.components.schemas)) {
          expect(
            () => ajv().getSchema(`${viewRootId(name, view)}#/$defs/${schema}`),
            `${view} ${schema}`,
          ).not.toThrow();
          expect(ajv().getSchema(`${viewRootId(name, view)}#/$defs/${schema}`)).toBeTypeOf('function');
        }
      }
    });
  }
});
