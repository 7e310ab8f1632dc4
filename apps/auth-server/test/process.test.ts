import { fileURLToPath } from 'node:url';
import { describeServiceProcess } from '@catalog/server-runtime/process-suite';

describeServiceProcess({
  service: 'auth-server',
  entry: fileURLToPath(new URL('../src/main.ts', import.meta.url)),
  portVariable: 'AUTH_SERVER_PORT',
});
