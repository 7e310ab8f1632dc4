import { createAdminUser } from '@catalog/identity';
import { startTestServer, type TestServer } from './test-server.ts';

/** A test server whose store holds one administrator (group `admin`) who signs in with `password`. */
export async function startServerWithAdmin(
  admin: { email: string; password: string },
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<TestServer> {
  const server = await startTestServer(options);
  await createAdminUser({ users: server.store.adminUsers, ...admin, groups: ['admin'] });
  return server;
}
