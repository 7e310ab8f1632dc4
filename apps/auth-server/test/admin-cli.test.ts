import { fileURLToPath } from 'node:url';
import { rawRequest, runToExit } from '@catalog/server-runtime/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

// The operator's entry point, run from source as `pnpm admin …` runs its build.
const ADMIN_CLI = fileURLToPath(new URL('../../operator-cli/src/admin-cli.ts', import.meta.url));
const PASSWORD = 'a long operator password';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

async function admin(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  return runToExit({
    entry: ADMIN_CLI,
    args,
    stdin: options.stdin ?? '',
    env: { DATA_DIR: server.dataDir, AUTH_SERVER_PORT: new URL(server.url).port, ...options.env },
  });
}

describe('pnpm admin (operator CLI for the token server)', () => {
  it('users add creates an administrator with the password from stdin', async () => {
    const result = await admin(['users', 'add', '--email', 'ops@example.com', '--group', 'admin'], {
      stdin: `${PASSWORD}\n`,
    });
    expect(result.stderr).toContain('created administrator ops@example.com');
    expect(result.code).toBe(0);
    const user = await server.store.adminUsers.getByEmail('ops@example.com');
    expect(user?.groups).toEqual(['admin']);
    expect(user?.passwordHash).toMatch(/^scrypt\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
  });

  it('users add takes the password from ADMIN_PASSWORD and refuses a short one (exit 1)', async () => {
    const ok = await admin(['users', 'add', '--email', 'viewer@example.com', '--group', 'viewers'], {
      env: { ADMIN_PASSWORD: PASSWORD },
    });
    expect(ok.code).toBe(0);
    const weak = await admin(['users', 'add', '--email', 'weak@example.com', '--group', 'admin'], {
      env: { ADMIN_PASSWORD: 'short' },
    });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('at least 12 characters');
  });

  it('users list shows email, groups and status, never a hash', async () => {
    const result = await admin(['users', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ops@example\.com\tadmin\tactive\t/m);
    expect(result.stdout).not.toContain('scrypt');
  });

  it('token prints only an ID token obtained through the login flow over HTTPS', async () => {
    const result = await admin(['token', '--email', 'ops@example.com'], { stdin: PASSWORD });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const token = result.stdout.trim();
    expect(result.stdout).toBe(`${token}\n`);
    const jwks = JSON.parse(
      (await rawRequest(`${server.url}/.well-known/jwks.json`, { ca: server.ca })).body,
    );
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: server.url,
      audience: 'catalog-admin',
    });
    expect(payload.groups).toEqual(['admin']);
  });

  it('token fails with exit 1 and a generic message on a wrong password', async () => {
    const result = await admin(['token', '--email', 'ops@example.com'], { stdin: 'not the password' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('invalid email or password');
  });

  it('users disable stops further sign-ins', async () => {
    expect((await admin(['users', 'disable', '--email', 'viewer@example.com'])).code).toBe(0);
    expect((await admin(['users', 'list'])).stdout).toMatch(/^viewer@example\.com\tviewers\tdisabled\t/m);
    const result = await admin(['token', '--email', 'viewer@example.com'], { stdin: PASSWORD });
    expect(result.code).toBe(1);
  });

  it('keys rotate stages a key, then refuses to promote it before the JWKS cache time (exit 1)', async () => {
    const staged = await admin(['keys', 'rotate']);
    expect(staged.code).toBe(0);
    expect(staged.stdout).toMatch(/^staged \S+\n$/);
    const early = await admin(['keys', 'rotate']);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('--force');
    const promoted = await admin(['keys', 'rotate', '--force']);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toBe(`active ${staged.stdout.slice('staged '.length)}`);
  });

  it('exits with 2 on wrong usage or configuration', async () => {
    expect((await admin(['users', 'add', '--email', 'x@example.com'])).code).toBe(2);
    expect(
      (await admin(['token', '--email', 'ops@example.com'], { env: { AUTH_SERVER_PORT: 'http' } })).code,
    ).toBe(2);
    expect((await admin(['nonsense'])).code).toBe(2);
  });
});
