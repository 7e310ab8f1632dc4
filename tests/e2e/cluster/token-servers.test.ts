// The token server's instances keep nothing a caller depends on: an administrator's sign-in goes
// through whichever instance each step reaches, a lock-out earned on one holds on the other, and a
// signing key rotated in the shared store is published and used by both, the API accepting what
// either signs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterStack, type E2EStack } from '../support/stack.ts';
import { type Cluster, type ClusterInstance, startCluster } from './support/cluster.ts';
import { direct } from './support/direct-call.ts';
import { signInAcross } from './support/sign-in-across.ts';

const PASSWORD = 'a long cluster admin password';

let cluster: Cluster;
let stack: E2EStack;

beforeAll(async () => {
  cluster = await startCluster({ demoProducts: 50 });
  stack = clusterStack(cluster);
});
afterAll(() => stack?.stop());

let administrators = 0;
/** A new administrator, created as an operator does (`pnpm admin users add`). */
async function administrator(): Promise<string> {
  administrators += 1;
  const email = `cluster.admin.${administrators}.${Date.now()}@example.test`;
  const added = await stack.operator(
    'admin',
    ['users', 'add', '--email', email, '--group', 'admin'],
    PASSWORD,
  );
  if (added.code !== 0) throw new Error(`admin users add exited with ${added.code}:\n${added.output}`);
  return email;
}

const kidOf = (jwt: string): string =>
  (JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid: string }).kid;

/** Polls `read` until `done` holds for its value, or fails after `timeoutMs`. */
async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (let value = await read(); ; value = await read()) {
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// First in this file: the API instances fetch the token servers' keys for the first time after the
// new key is staged, as every cache holds it once the 10 minutes `keys rotate` waits between its two
// steps have passed (an instance asks again for a key it does not know at most every 30 s).
describe('signing-key rotation seen by both token servers', () => {
  it('a key staged by `pnpm admin keys rotate` is published by both servers’ JWKS; promoted, both sign with it, both API instances accept the new tokens at once, and a token signed before stays valid', async () => {
    const published = (server: ClusterInstance) => async () =>
      ((await direct(server, '/.well-known/jwks.json')).body as { keys: Array<{ kid: string }> }).keys.map(
        (key) => key.kid,
      );
    const [oldKid] = await published(cluster.auth[0])();
    const staged = await stack.operator('admin', ['keys', 'rotate']);
    expect(staged.code, staged.output).toBe(0);
    const kids = await Promise.all(
      cluster.auth.map((server) =>
        until(published(server), (listed) => listed.length > 1, `${server.name} publishes the staged key`),
      ),
    );
    const newKid = kids[0]?.find((kid) => kid !== oldKid) as string;
    for (const listed of kids) expect(listed.sort()).toEqual([oldKid, newKid].sort());

    const client = await stack.createClient(['products.read']);
    const old = await stack.accessToken(client, ['products.read']);
    expect(kidOf(old)).toBe(oldKid);
    for (const instance of cluster.api)
      expect((await direct(instance, '/products/search?size=1', { token: old })).status, instance.name).toBe(
        200,
      );

    const promoted = await stack.operator('admin', ['keys', 'rotate', '--force']);
    expect(promoted.code, promoted.output).toBe(0);
    const form = {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'crm-api/products.read',
    };
    const issued = (server: ClusterInstance) => async () => {
      const reply = await direct(server, '/oauth2/token', { method: 'POST', form });
      return (reply.body as { access_token?: string }).access_token ?? '';
    };
    for (const server of cluster.auth) {
      const token = await until(
        issued(server),
        (jwt) => jwt !== '' && kidOf(jwt) === newKid,
        `${server.name} signs with the new key`,
      );
      for (const instance of cluster.api) {
        const reply = await direct(instance, '/products/search?size=1', { token });
        expect(reply.status, `${server.name}'s token at ${instance.name}`).toBe(200);
      }
    }
    for (const instance of cluster.api)
      expect((await direct(instance, '/products/search?size=1', { token: old })).status, instance.name).toBe(
        200,
      );
  });
});

describe('admin sign-in across the token servers', () => {
  it('an administrator’s sign-in whose every step reaches the other token server than the step before succeeds, and the API accepts its ID token', async () => {
    const email = await administrator();
    const outcome = await signInAcross({
      servers: cluster.auth,
      authUrl: cluster.authUrl,
      catalogUrl: cluster.baseUrl,
      email,
      password: PASSWORD,
    });
    expect(outcome.status, outcome.steps.join(' → ')).toBe(200);
    for (const server of cluster.auth)
      expect(outcome.steps.filter((step) => step === server.name).length).toBeGreaterThanOrEqual(2);
    const idToken = outcome.idToken as string;
    for (const instance of cluster.api)
      expect((await direct(instance, '/oauth/clients', { token: idToken })).status, instance.name).toBe(200);
  });
});

describe('login lock-out shared by the token servers', () => {
  it('five wrong passwords for an email on one token server lock it out on the other: the right password is then refused there (429)', async () => {
    const email = await administrator();
    const [one, other] = cluster.auth;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await signInAcross({
        servers: [one],
        authUrl: cluster.authUrl,
        catalogUrl: cluster.baseUrl,
        email,
        password: 'not the password at all',
      });
      expect(wrong.status, `attempt ${attempt}`).toBe(401);
    }
    const locked = await signInAcross({
      servers: [other],
      authUrl: cluster.authUrl,
      catalogUrl: cluster.baseUrl,
      email,
      password: PASSWORD,
    });
    expect(locked.status).toBe(429);
    expect(locked.idToken).toBeUndefined();
  });
});
