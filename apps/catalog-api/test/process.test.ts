import { fileURLToPath } from 'node:url';
import { describeServiceProcess } from '@catalog/server-runtime/testing';

describeServiceProcess({
  service: 'catalog-api',
  entry: fileURLToPath(new URL('../src/main.ts', import.meta.url)),
  portVariable: 'CATALOG_API_PORT',
});
