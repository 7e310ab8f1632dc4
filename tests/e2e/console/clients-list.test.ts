// The clients list as administrators use it every day, in real headless Chromium against both real
// servers: 60 clients made through the API, paged 25 at a time, sorted by a column header, filtered
// by scope, channel and expiry, all of it kept in the URL (reload, Back); one client's page with its
// audit activity; the row's actions menu by keyboard only; a client replaced by its duplicate (a
// secret is never rotated in place, spec 3 rule 3); axe-core and the narrow screen on both pages.

import { requestAccessToken } from '@catalog/server-runtime/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import {
  axeViolations,
  newConsoleContext,
  overflowsHorizontally,
  VIEWPORTS,
  type ViewportName,
  watchPageProblems,
} from './support/browser.ts';
import { signInThroughConsole } from './support/console-stack.ts';
import { startConsoleSuite } from './support/console-suite.ts';

const CLIENT_COUNT = 60;
// Unique per run, so a name search finds this run's clients only.
const suffix = Date.now().toString(36);
const feedName = (n: number) => `Feed ${suffix} ${String(n).padStart(2, '0')}`;
const channelSlug = `outlet-${suffix}`;

let stack: E2EStack;
let browser: Browser;
let admin: { email: string; password: string };
let adminToken: string;
/** Client IDs of the 60 feeds, by their number (1–60). */
const feedIds = new Map<number, string>();

/** Feed n: brands.read too for every third, bound to the channel every tenth, expiring in 5 days every seventh. */
const feedBody = (n: number) => ({
  clientName: feedName(n),
  scopes: n % 3 === 0 ? ['products.read', 'brands.read'] : ['products.read'],
  ...(n % 7 === 0 ? { expiresInDays: 5 } : {}),
});

async function apiAs(path: string, method: string, body?: unknown) {
  const reply = await stack.api(path, { method, token: adminToken, ...(body === undefined ? {} : { body }) });
  if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status}: ${reply.text}`);
  return reply.body as Record<string, unknown>;
}

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite({ demoProducts: 50 }));
  admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
  adminToken = await stack.adminIdToken();
  await apiAs('/company-settings/web-channels', 'POST', { slug: channelSlug, name: `Outlet ${suffix}` });
  // One at a time: createdAt then follows the numbers, which the newest-first order relies on.
  for (let n = 1; n <= CLIENT_COUNT; n += 1) {
    const created = await apiAs('/oauth/clients', 'POST', feedBody(n));
    feedIds.set(n, String(created.clientId));
    if (n % 10 === 0) await apiAs(`/oauth/clients/${created.clientId}`, 'PUT', { channel: channelSlug });
  }
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signedInPage(startPage = '', viewport: ViewportName = 'desktop') {
  const context = await newConsoleContext(browser, viewport);
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await signInThroughConsole(page, stack, admin, startPage);
  return { context, page, problems };
}

/** The list of this run's feeds, as a link with the search in it opens it. */
const feedsList = (query = '') => `clients?q=${encodeURIComponent(`Feed ${suffix}`)}${query}`;

const showing = (page: Page) =>
  page.getByRole('navigation', { name: 'Pages of clients' }).getByRole('status');
const bodyRows = (page: Page) => page.getByRole('table', { name: /Integrators/ }).locator('tbody > tr');
const firstRowName = (page: Page) => bodyRows(page).first().locator('.name').textContent();
const columnHeader = (page: Page, name: string) => page.getByRole('columnheader', { name });

/** Waits until the list says `text` (e.g. "Showing 26–50 of 60 clients"). */
async function listSays(page: Page, text: string): Promise<void> {
  await showing(page).getByText(text).waitFor();
}

/** The page loads again; it signs in again if the token server asks for it, and returns to the same address. */
async function reloadSignedIn(page: Page): Promise<void> {
  const address = page.url();
  await page.reload();
  const heading = page.getByRole('heading', { level: 1, name: 'Clients' });
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await heading.or(signIn).waitFor();
  if (await signIn.isVisible()) {
    await signIn.click();
    const password = page.getByLabel('Password');
    await password.or(heading).waitFor();
    if (await password.isVisible()) {
      await page.getByLabel('Email').fill(admin.email);
      await password.fill(admin.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    }
    await heading.waitFor();
  }
  expect(page.url()).toBe(address);
}

/** Opens the row's actions menu with the mouse and picks `action`. */
async function rowAction(page: Page, clientName: string, action: string): Promise<void> {
  const row = page.getByRole('row').filter({ hasText: clientName });
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Waits until `locator` holds the focus (the menu moves it once it has rendered). */
const focused = (page: Page, locator: Locator) => locator.and(page.locator(':focus')).waitFor();
const focusedItem = (page: Page, name: string) =>
  focused(page, page.getByRole('menuitem', { name, exact: true }));

/** Waits until the column `name` is the sorted one, in `direction`. */
const sortedBy = (page: Page, name: string, direction: 'ascending' | 'descending') =>
  page.locator(`th[aria-sort="${direction}"]`).filter({ hasText: name }).waitFor();

describe('clients list', () => {
  it('the list is paged 25 at a time and says where it is ("Showing 26–50 of 60"); a row has two tab stops, its name link and its Actions button', async () => {
    const { context, page, problems } = await signedInPage(feedsList());
    await listSays(page, 'Showing 1–25 of 60 clients');
    await expect(bodyRows(page).count()).resolves.toBe(25);
    // Newest first by default: feed 60 heads page 1.
    await expect(firstRowName(page)).resolves.toBe(feedName(60));
    const tabStops = bodyRows(page).locator('a[href], button, [tabindex="0"]');
    await expect(tabStops.count()).resolves.toBe(50);

    await page.getByRole('button', { name: 'Next page' }).click();
    await listSays(page, 'Showing 26–50 of 60 clients');
    await expect(firstRowName(page)).resolves.toBe(feedName(35));
    await page.getByRole('button', { name: 'Next page' }).click();
    await listSays(page, 'Showing 51–60 of 60 clients');
    await expect(bodyRows(page).count()).resolves.toBe(10);
    // At the last page Next stays focusable but does nothing.
    const next = page.getByRole('button', { name: 'Next page' });
    await expect(next.getAttribute('aria-disabled')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await listSays(page, 'Showing 26–50 of 60 clients');
    // The row shows the client ID, so same-named clients are told apart.
    await bodyRows(page)
      .first()
      .getByText(String(feedIds.get(35)))
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a column header sorts by its column and says so with aria-sort; a second click turns the direction', async () => {
    const { context, page, problems } = await signedInPage(feedsList());
    await listSays(page, 'Showing 1–25 of 60 clients');
    await expect(columnHeader(page, 'Created').getAttribute('aria-sort')).resolves.toBe('descending');
    await columnHeader(page, 'Name').getByRole('button').click();
    await sortedBy(page, 'Name', 'ascending');
    await expect(firstRowName(page)).resolves.toBe(feedName(1));
    await expect(columnHeader(page, 'Created').getAttribute('aria-sort')).resolves.toBeNull();
    await columnHeader(page, 'Name').getByRole('button').click();
    await sortedBy(page, 'Name', 'descending');
    await expect(firstRowName(page)).resolves.toBe(feedName(60));
    // Expiry, soonest first: the feeds that expire (every seventh) before those that never do.
    await columnHeader(page, 'Expires').getByRole('button').click();
    await sortedBy(page, 'Expires', 'descending');
    await columnHeader(page, 'Expires').getByRole('button').click();
    await sortedBy(page, 'Expires', 'ascending');
    await expect(firstRowName(page)).resolves.toBe(feedName(7));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the scope, channel and expiry filters narrow the list and the count with it', async () => {
    const { context, page, problems } = await signedInPage(feedsList());
    await listSays(page, 'Showing 1–25 of 60 clients');
    await page.getByLabel('Scope').selectOption('brands.read');
    await listSays(page, 'Showing 1–20 of 20 clients');
    await page.getByLabel('Channel').selectOption(channelSlug);
    // Feeds 30 and 60 are both bound and granted brands.read.
    await listSays(page, 'Showing 1–2 of 2 clients');
    await page.getByLabel('Scope').selectOption('');
    await listSays(page, 'Showing 1–6 of 6 clients');
    await page.getByLabel('Channel').selectOption('');
    await page.getByLabel('Expiry').selectOption('soon');
    await listSays(page, 'Showing 1–8 of 8 clients');
    await bodyRows(page).first().getByText('Expires in 5 days').waitFor();
    await page.getByLabel('Expiry').selectOption('never');
    await listSays(page, 'Showing 1–25 of 52 clients');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the list's filters, sort and page live in the URL: Back from a client's page and a reload show the same list", async () => {
    const { context, page, problems } = await signedInPage(feedsList());
    await listSays(page, 'Showing 1–25 of 60 clients');
    await page.getByLabel('Scope').selectOption('products.read');
    await columnHeader(page, 'Name').getByRole('button').click();
    await sortedBy(page, 'Name', 'ascending');
    await page.getByRole('button', { name: 'Next page' }).click();
    await listSays(page, 'Showing 26–50 of 60 clients');
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: `Feed ${suffix}`,
      scope: 'products.read',
      sort: 'name',
      page: '2',
    });

    const expectSameList = async () => {
      await listSays(page, 'Showing 26–50 of 60 clients');
      await expect(firstRowName(page)).resolves.toBe(feedName(26));
      await expect(columnHeader(page, 'Name').getAttribute('aria-sort')).resolves.toBe('ascending');
      await expect(page.getByLabel('Scope').inputValue()).resolves.toBe('products.read');
      await expect(page.getByLabel('Search clients').inputValue()).resolves.toBe(`Feed ${suffix}`);
    };
    await bodyRows(page)
      .first()
      .getByRole('link', { name: feedName(26) })
      .click();
    await page.getByRole('heading', { level: 1, name: feedName(26) }).waitFor();
    await page.goBack();
    await expectSameList();
    // Back once more: page 1 of the same list (a page is a step of the history; a filter is not).
    await page.goBack();
    await listSays(page, 'Showing 1–25 of 60 clients');
    await page.goForward();
    await expectSameList();
    await reloadSignedIn(page);
    await expectSameList();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a client's page shows every field, its status and its audit activity newest first with who, what and when (date and time); its deep link serves the console", async () => {
    const n = 13;
    const clientId = String(feedIds.get(n));
    await apiAs(`/oauth/clients/${clientId}`, 'PUT', {
      description: 'Moved to the new warehouse',
      scopes: ['products.read', 'brands.read'],
    });
    // The API serves the console's page at the client's address itself (a shared or reloaded link).
    const deep = await stack.api(`/console/clients/${clientId}`);
    expect(deep.status).toBe(200);
    expect(String(deep.headers['content-type'])).toContain('text/html');

    const { context, page, problems } = await signedInPage(`clients/${clientId}`);
    await page.getByRole('heading', { level: 1, name: feedName(n) }).waitFor();
    const details = page.getByRole('region', { name: 'Details' });
    for (const text of [
      clientId,
      'active',
      'Moved to the new warehouse',
      'products.read, brands.read',
      'Unbound',
    ])
      await details.getByText(text, { exact: true }).first().waitFor();
    await details.getByText(`by ${admin.email}`).waitFor();
    await details.getByRole('definition').filter({ hasText: /^\d+$/ }).first().waitFor();

    const activity = page.getByRole('region', { name: 'Recent activity' }).locator('tbody > tr');
    await activity.first().waitFor();
    await expect(activity.count()).resolves.toBe(2);
    const [changed, created] = await activity.allTextContents();
    expect(changed).toContain(admin.email);
    expect(changed).toContain('Changed');
    expect(changed).toContain('scopes from products.read to products.read, brands.read');
    expect(changed).toContain('description from none to Moved to the new warehouse');
    expect(created).toContain('Created');
    // When: the day and the time, in the browser's zone (UTC here), with the exact instant as its title.
    const when = activity.first().locator('time');
    await expect(when.textContent()).resolves.toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
    await expect(when.getAttribute('title')).resolves.toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the actions menu works by keyboard only: Enter opens it on its first item, arrows move, Escape closes it and gives the focus back to its button', async () => {
    const { context, page, problems } = await signedInPage(feedsList());
    await listSays(page, 'Showing 1–25 of 60 clients');
    const row = page.getByRole('row').filter({ hasText: feedName(60) });
    const actions = row.getByRole('button', { name: 'Actions' });
    await expect(actions.getAttribute('aria-haspopup')).resolves.toBe('menu');
    await actions.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expect(actions.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual([
      'Edit',
      'Duplicate…',
      'Revoke',
    ]);
    await focusedItem(page, 'Edit');
    await page.keyboard.press('ArrowDown');
    await focusedItem(page, 'Duplicate…');
    await page.keyboard.press('ArrowDown');
    await focusedItem(page, 'Revoke');
    // Past the last item, back to the first.
    await page.keyboard.press('ArrowDown');
    await focusedItem(page, 'Edit');
    await page.keyboard.press('ArrowUp');
    await focusedItem(page, 'Revoke');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await focused(page, actions);
    await expect(actions.getAttribute('aria-expanded')).resolves.toBe('false');

    // Space opens it too; Enter on an item does what it says.
    await page.keyboard.press(' ');
    await menu.waitFor();
    await focusedItem(page, 'Edit');
    await page.keyboard.press('End');
    await focusedItem(page, 'Revoke');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('region', { name: `Revoke ${feedName(60)}` });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Duplicate creates a replacement with the old fields and a fresh expiry, shows its secret once, and the walk-through revokes the old client', async () => {
    const oldName = `Warehouse sync ${suffix}`;
    const old = await apiAs('/oauth/clients', 'POST', {
      clientName: oldName,
      description: 'Stock levels every hour',
      scopes: ['products.read', 'brands.read'],
      expiresInDays: 30,
    });
    const oldId = String(old.clientId);
    await apiAs(`/oauth/clients/${oldId}`, 'PUT', { channel: channelSlug });
    const { context, page, problems } = await signedInPage(`clients?q=${encodeURIComponent(oldName)}`);
    await rowAction(page, oldName, 'Duplicate…');

    const form = page.getByRole('region', { name: `Duplicate ${oldName}` });
    await expect(form.getByLabel('Client name').inputValue()).resolves.toBe(`${oldName} replacement`);
    await expect(form.getByLabel('Description').inputValue()).resolves.toBe('Stock levels every hour');
    await expect(form.getByRole('checkbox', { name: 'products.read' }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole('checkbox', { name: 'brands.read' }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole('checkbox', { name: 'products.write' }).isChecked()).resolves.toBe(false);
    await expect(form.getByLabel('Expires in (days)').inputValue()).resolves.toBe('30');
    await expect(form.getByLabel('Channel').inputValue()).resolves.toBe(channelSlug);
    await form.getByRole('button', { name: 'Create client' }).click();

    const created = page.getByRole('region', { name: /copy the secret now/i });
    await created.waitFor();
    const newId = (await created.getByTestId('client-id').textContent())?.trim() ?? '';
    const secret = await created.getByLabel('Client secret').inputValue();
    const replacement = (await stack.api(`/oauth/clients/${newId}`, { token: adminToken })).body as Record<
      string,
      unknown
    >;
    expect(replacement).toMatchObject({
      clientName: `${oldName} replacement`,
      description: 'Stock levels every hour',
      scopes: ['products.read', 'brands.read'],
      channel: channelSlug,
      status: 'active',
    });
    // A fresh expiry: 30 days from the replacement's creation, not the old client's date.
    const lifetime = Date.parse(String(replacement.expiresAt)) - Date.parse(String(replacement.createdAt));
    expect(Math.round(lifetime / 86_400_000)).toBe(30);
    expect(Date.parse(String(replacement.expiresAt))).toBeGreaterThan(Date.parse(String(old.expiresAt)));

    // The integration moves: the new secret obtains a token, and step 2 sees it.
    const token = await requestAccessToken({
      authUrl: stack.authUrl,
      ca: stack.ca,
      clientId: newId,
      clientSecret: secret,
      scopes: ['products.read'],
    });
    expect(token.status).toBe(200);
    await created.getByRole('button', { name: /I have stored the secret/ }).click();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await expect(page.getByLabel('Client secret').count()).resolves.toBe(0);

    const steps = page.getByRole('region', { name: `Replace ${oldName}: the remaining steps` });
    await steps.getByText(newId).waitFor();
    await steps.getByRole('button', { name: 'Check again' }).click();
    await steps.getByRole('status').locator('time').waitFor();

    await steps.getByRole('button', { name: `Revoke the old client ${oldName}` }).click();
    const confirm = steps.getByRole('region', { name: `Revoke ${oldName}` });
    await confirm.getByLabel(`Type ${oldName} to confirm`).fill(oldName);
    await confirm.getByRole('button', { name: 'Revoke client' }).click();
    await steps.getByText(`${oldName} was revoked on`).waitFor();
    const oldNow = (await stack.api(`/oauth/clients/${oldId}`, { token: adminToken })).body as {
      status: string;
    };
    expect(oldNow.status).toBe('revoked');
    await page
      .getByRole('row')
      .filter({ hasText: oldId })
      .getByText(/Revoked by/)
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`the clients page (its menu open) and a client's page pass axe-core with no violation at any impact and fit the screen at ${VIEWPORTS[viewport].width} px`, async () => {
      const { context, page, problems } = await signedInPage(feedsList(), viewport);
      await listSays(page, 'Showing 1–25 of 60 clients');
      expect(await axeViolations(page), 'clients page').toEqual([]);
      expect(await overflowsHorizontally(page), 'clients page').toBe(false);
      const row = page.getByRole('row').filter({ hasText: feedName(60) });
      await row.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menu').waitFor();
      expect(await axeViolations(page), 'actions menu').toEqual([]);
      expect(await overflowsHorizontally(page), 'actions menu').toBe(false);
      await page.keyboard.press('Escape');

      await row.getByRole('link', { name: feedName(60) }).click();
      await page.getByRole('heading', { level: 1, name: feedName(60) }).waitFor();
      await page.getByRole('region', { name: 'Recent activity' }).locator('tbody > tr').first().waitFor();
      expect(await axeViolations(page), "client's page").toEqual([]);
      expect(await overflowsHorizontally(page), "client's page").toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
