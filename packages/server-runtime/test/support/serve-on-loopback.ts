import type { RequestListener } from 'node:http';
import { listen, type RunningServer } from '../../src/index.ts';

/**
 * Serves `handler` over plain HTTP on an ephemeral loopback port and returns its base URL;
 * the server joins `running`, which the test file closes after each test.
 */
export async function serveOnLoopback(handler: RequestListener, running: RunningServer[]): Promise<string> {
  const server = await listen({ handler, host: '127.0.0.1', port: 0, tls: null, portVariable: 'PORT' });
  running.push(server);
  return `http://127.0.0.1:${server.port}`;
}
