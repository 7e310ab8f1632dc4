import { fileURLToPath } from 'node:url';
import { describeServiceProcess } from '@catalog/server-runtime/process-suite';

describeServiceProcess({
  service: 'catalog-api',
  entry: fileURLToPath(new URL('../src/main.ts', import.meta.url)),
  portVariable: 'CATALOG_API_PORT',
  env: { DEMO_CATALOGUE_PRODUCTS: '0' },
});
