import { defineConfig } from 'vite';
import { requestValidators } from './vite/request-validators.ts';

// Relative asset URLs: the catalog API serves the console under `${BASE_PATH}/console/` and writes
// a <base href> into index.html, so one build works under any stage prefix.
export default defineConfig({
  base: './',
  esbuild: { jsx: 'automatic' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0 },
  plugins: [
    requestValidators([
      'createM2MClient',
      'updateM2MClient',
      'createWebChannel',
      'updateWebChannel',
      'rotateWebhookSecret',
    ]),
  ],
});
