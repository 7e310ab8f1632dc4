// Browser tests of the administrator's session (issue 30, "Sessions"): signing out ends the token
// server's session and reaches every tab; a reload or a new tab is signed in silently while that
// session lasts; the ID token is renewed silently before it expires without losing what was typed.
// "Tabs" are pages of one BrowserContext: one browser profile, one cookie jar, one origin's channel.

import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import { axeViolations, newConsoleContext, watchPageProblems } from './support/browser.ts';
import { consoleUrl, signInThroughConsole } from './support/console-stack.ts';
import { startConsoleSuite } from './support/console-suite.ts';

let stack: E2EStack;
let browser: Browser;
let admin: { email: string; password: string };

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite());
  admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });

/** Everything the console's origin keeps in the browser: both storages and its cookies. */
async function storedInBrowser(context: BrowserContext, page: Page): Promise<string> {
  const storages = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  const cookies = await context.cookies(stack.baseUrl);
  return `${storages} ${JSON.stringify(cookies)}`;
}

/** A new tab of the same browser at the console's `path`, with its problems watched. */
async function openTab(context: BrowserContext, path = '') {
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await page.goto(consoleUrl(stack, path));
  return { page, problems };
}

/** The hidden frame's silent authorization request (prompt=none), as the browser sends it. */
const isSilentAuthorization = (request: Request) => {
  const url = new URL(request.url());
  return url.pathname.endsWith('/oauth2/authorize') && url.searchParams.get('prompt') === 'none';
};

const JWT = /eyJ[\w-]+\.eyJ/;

describe('administrator sessions', () => {
  it("sign-out in one tab signs out every tab of the console and ends the token server's session: a new tab must enter the password again", async () => {
    const context = await newConsoleContext(browser);
    const first = await context.newPage();
    const firstProblems = watchPageProblems(first);
    await signInThroughConsole(first, stack, admin);
    await heading(first, 'Clients').waitFor();
    const second = await openTab(context, 'channels');
    await heading(second.page, 'Web channels').waitFor();

    await first.getByRole('button', { name: 'Sign out' }).click();
    // Back from the token server's logout, which submitted itself: no click there.
    await first.getByText('You have signed out.').waitFor();
    await signInButton(first).waitFor();
    // The other tab heard of it at once, and dropped its token.
    await second.page.getByText('You have signed out.').waitFor();
    await expect(second.page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);
    expect(await axeViolations(second.page), 'signed-out page').toEqual([]);

    // A new tab is not signed in silently, and its Sign in asks for the password.
    const third = await openTab(context);
    await signInButton(third.page).click();
    await third.page.waitForURL((url) => url.origin === new URL(stack.authUrl).origin);
    await third.page.getByLabel('Password').waitFor();

    expect(await storedInBrowser(context, first)).not.toMatch(JWT);
    expect([...firstProblems, ...second.problems, ...third.problems]).toEqual([]);
    await context.close();
  });

  it('a sign-out link the console did not send asks first, on a page like the login page with no axe violation', async () => {
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    await signInThroughConsole(page, stack, admin);
    await heading(page, 'Clients').waitFor();
    const back = consoleUrl(stack, 'signed-out');
    await page.goto(
      `${stack.authUrl}/oauth2/logout?${new URLSearchParams({ client_id: 'catalog-admin', post_logout_redirect_uri: back })}`,
    );
    const confirm = page.getByRole('button', { name: 'Sign out' });
    await confirm.waitFor();
    expect(await axeViolations(page), 'logout page').toEqual([]);
    await confirm.click();
    await page.getByText('You have signed out.').waitFor();
    await context.close();
  });

  it("a reload or a new tab is signed in silently while the token server's session lasts", async () => {
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    const problems = watchPageProblems(page);
    await signInThroughConsole(page, stack, admin, 'channels');
    await heading(page, 'Web channels').waitFor();

    await page.reload();
    await heading(page, 'Web channels').waitFor();
    await expect(page.getByText(admin.email).first().isVisible()).resolves.toBe(true);

    const tab = await openTab(context, 'preview');
    await heading(tab.page, 'See what an integrator sees').waitFor();
    await expect(signInButton(tab.page).count()).resolves.toBe(0);

    // The token stays in memory: nothing in Web Storage or cookies carries it.
    expect(await storedInBrowser(context, tab.page)).not.toMatch(JWT);
    expect([...problems, ...tab.problems]).toEqual([]);
    await context.close();
  });

  it('a renewal of the ID token keeps a half-typed form, and the console calls the API with the new token', async () => {
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    const problems = watchPageProblems(page);
    await page.clock.install();
    const bearers: string[] = [];
    page.on('request', (request) => {
      const authorization = request.headers().authorization;
      if (request.url().startsWith(stack.baseUrl) && authorization !== undefined) bearers.push(authorization);
    });
    await signInThroughConsole(page, stack, admin, 'channels');
    await heading(page, 'Web channels').waitFor();
    await page.getByLabel('Slug').fill('half-typed');
    await page.getByLabel('Name', { exact: true }).fill('A shop not saved yet');

    // 50 minutes on: past the renewal point (80% of the token's hour), before its expiry.
    const renewal = page.waitForResponse(
      (response) => response.url().endsWith('/oauth2/token') && response.request().method() === 'POST',
    );
    const silentRequest = page.waitForRequest(isSilentAuthorization);
    await page.clock.fastForward('00:50:00');
    await silentRequest;
    expect((await renewal).status()).toBe(200);

    await expect(page.getByLabel('Slug').inputValue()).resolves.toBe('half-typed');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('A shop not saved yet');
    await expect(heading(page, 'Web channels').isVisible()).resolves.toBe(true);

    const before = new Set(bearers);
    expect(before.size).toBeGreaterThan(0);
    const nextCall = page.waitForRequest(
      (request) => request.url().startsWith(stack.baseUrl) && request.headers().authorization !== undefined,
    );
    await page.getByRole('link', { name: 'Clients' }).click();
    const bearer = (await nextCall).headers().authorization ?? '';
    expect(bearer).toMatch(/^Bearer /);
    expect(before.has(bearer)).toBe(false);

    expect(await storedInBrowser(context, page)).not.toMatch(JWT);
    expect(problems).toEqual([]);
    await context.close();
  });
});
