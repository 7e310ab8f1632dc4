// Both servers for the console suite, the way `pnpm start` lines them up: the token server must know
// the catalog API's port to register the console's redirect URI by default, so the API's port is
// chosen before either server starts and given to both.
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { type E2EStack, type StackOptions, startE2EStack } from '../../support/stack.ts';

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

export async function startConsoleStack(options: StackOptions = {}): Promise<E2EStack> {
  const apiPort = await freeLoopbackPort();
  return startE2EStack({
    ...options,
    env: { CATALOG_API_PORT: String(apiPort), ...options.env },
  });
}

/** The console's address on this stack, as an administrator types it after `pnpm start`. */
export const consoleUrl = (stack: E2EStack, page = '') => `${stack.baseUrl}/console/${page}`;

/**
 * Signs in from the console's own sign-in screen: the console redirects to the token server's login
 * page, the administrator types email and password there, and the authorization code comes back to
 * the console's callback, which exchanges it and returns to the page the sign-in started from.
 */
export async function signInThroughConsole(
  page: Page,
  stack: E2EStack,
  credentials: { email: string; password: string },
  startPage = '',
): Promise<void> {
  const authOrigin = new URL(stack.authUrl).origin;
  const consoleOrigin = new URL(stack.baseUrl).origin;
  await page.goto(consoleUrl(stack, startPage));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === authOrigin);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === consoleOrigin && !url.pathname.endsWith('/callback'));
}
