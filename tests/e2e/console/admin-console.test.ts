// The administrators' console in real headless Chromium (Debian's package, driven by playwright-core)
// against both real servers on a fresh DATA_DIR: the sign-in through the token server's login page,
// a client's whole life (create, copy the secret, a real token with it, the search preview, rescope,
// revoke, the token refused), a non-administrator, an ID token that expires mid-session, axe-core
// over every page at both sizes, and nothing secret left in the browser's storage.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { requestAccessToken } from '@catalog/server-runtime/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageClientPastExpiry } from '../conformance/support/aged-clients.ts';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import {
  axeViolations,
  newConsoleContext,
  overflowsHorizontally,
  VIEWPORTS,
  type ViewportName,
  watchPageProblems,
} from './support/browser.ts';
import { consoleUrl, signInThroughConsole } from './support/console-stack.ts';
import { startConsoleSuite } from './support/console-suite.ts';

const run = promisify(execFile);

let stack: E2EStack;
let browser: Browser;
let admin: { email: string; password: string };

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite({ demoProducts: 300 }));
  admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signedInPage(viewport: ViewportName = 'desktop', startPage = '') {
  const context = await newConsoleContext(browser, viewport);
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await signInThroughConsole(page, stack, admin, startPage);
  return { context, page, problems };
}

/** Everything the console's origin keeps in the browser: both storages and its cookies. */
async function storedInBrowser(context: BrowserContext, page: Page): Promise<string> {
  const storages = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  const cookies = await context.cookies(stack.baseUrl);
  return `${storages} ${JSON.stringify(cookies)}`;
}

/** A command run by `sh -c` as pasted into a terminal, with these variables exported first; never throws. */
async function inShell(
  command: string,
  variables: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const exports = Object.entries(variables).map(([name, value]) => `export ${name}='${value}'; `);
    const { stdout, stderr } = await run('sh', ['-c', `${exports.join('')}${command}`]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const clientRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/** Picks `action` from the actions menu of the client's row. */
async function rowAction(page: Page, clientName: string, action: string): Promise<void> {
  await clientRow(page, clientName).getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('admin console', () => {
  it('serves the console at /console with a strict Content-Security-Policy and no framing', async () => {
    const reply = await stack.api('/console/');
    expect(reply.status).toBe(200);
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(reply.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('an administrator signs in through the token server login page and lands on the clients page', async () => {
    const { context, page, problems } = await signedInPage();
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText(admin.email).first().isVisible()).resolves.toBe(true);

    // Signing out forgets the ID token, and the next sign-in asks for the password again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === new URL(stack.authUrl).origin);
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    // The token server's login page: no axe violation at all, minor ones included.
    expect(await axeViolations(page), 'login page').toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('client lifecycle: create shows the secret once, the secret obtains a real token, the preview shows what that token gets, rescope narrows new tokens, Duplicate starts a replacement from its fields, revoke refuses the token', async () => {
    const { context, page, problems } = await signedInPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    const suffix = Date.now().toString(36);
    const channelSlug = `shop-${suffix}`;
    const clientName = `Web shop ${suffix}`;

    // A web channel to bind the client to, created on the channels page.
    await page.getByRole('link', { name: 'Web channels' }).click();
    await page.getByRole('heading', { level: 1, name: 'Web channels' }).waitFor();
    await page.getByLabel('Slug').fill(channelSlug);
    await page.getByLabel('Name', { exact: true }).fill(`Shop ${suffix}`);
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('row').filter({ hasText: channelSlug }).waitFor();
    await page.getByRole('button', { name: `Rename ${channelSlug}` }).click();
    await page.getByLabel(`New name of ${channelSlug}`).fill(`Shop ${suffix} renamed`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('row')
      .filter({ hasText: `Shop ${suffix} renamed` })
      .waitFor();
    const channels = await stack.api('/company-settings/web-channels', { token: await stack.adminIdToken() });
    expect(JSON.stringify(channels.body)).toContain(`Shop ${suffix} renamed`);

    // Create the client, bound to that channel.
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByLabel('Client name').fill(clientName);
    await page.getByLabel('Description').fill('Nightly catalogue sync of the web shop');
    await page.getByRole('checkbox', { name: 'products.read' }).check();
    await page.getByRole('checkbox', { name: 'brands.read' }).check();
    await page.getByLabel('Expires in (days)').fill('30');
    await page.getByRole('region', { name: 'New client' }).getByLabel('Channel').selectOption(channelSlug);
    await page.getByRole('button', { name: 'Create client' }).click();

    const created = page.getByRole('region', { name: /copy the secret now/i });
    await created.waitFor();
    const clientId = (await created.getByTestId('client-id').textContent())?.trim() ?? '';
    expect(clientId).toMatch(/^[a-zA-Z0-9]{26}$/);
    await created.getByRole('button', { name: 'Copy secret' }).click();
    await created.getByText('Copied').waitFor();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(created.getByText(`${stack.authUrl}/oauth2/token`).first().isVisible()).resolves.toBe(true);
    expect(await axeViolations(page), 'created-client panel').toEqual([]);
    const snippets = (await created.textContent()) ?? '';
    expect(snippets).toContain('curl');
    expect(snippets).toContain('crm-api/products.read');
    expect(snippets).not.toContain(secret);
    // The curl snippet works pasted into a shell, the secret in the environment as the panel says;
    // with a wrong secret it fails loudly: a non-zero exit and the token server's error body.
    const curl = (await created.getByTestId('curl-snippet').textContent()) ?? '';
    const pasted = await inShell(curl, { CATALOG_CLIENT_SECRET: secret });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(JSON.parse(pasted.stdout)).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
    });
    const wrongSecret = await inShell(curl, { CATALOG_CLIENT_SECRET: 'not-the-secret' });
    expect(wrongSecret.code).not.toBe(0);
    expect(wrongSecret.stdout).toContain('invalid_client');

    // Nothing secret written to the browser's storage or cookies.
    expect(await storedInBrowser(context, page)).not.toContain(secret);

    // The copied secret obtains a real token through the real token endpoint.
    const token = await requestAccessToken({
      authUrl: stack.authUrl,
      ca: stack.ca,
      clientId,
      clientSecret: secret,
      scopes: ['products.read', 'brands.read'],
    });
    expect(token.status).toBe(200);
    const accessToken = String(token.token);

    await created.getByRole('button', { name: /I have stored the secret/ }).click();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await clientRow(page, clientName).getByText(channelSlug).waitFor();

    // See what the integrator sees: the preview shows exactly what its own token gets.
    await page.getByRole('link', { name: 'See what an integrator sees' }).click();
    await page.getByRole('heading', { level: 1, name: 'See what an integrator sees' }).waitFor();
    await page.getByLabel('Client', { exact: true }).selectOption(clientId);
    await page.getByLabel('Fields').fill('id,productCode,name,displayOnWeb,supplierCost');
    await page.getByLabel('Sort by').selectOption('code');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByLabel('Page size').fill('5');
    await page.getByRole('button', { name: 'Run search' }).click();
    await page.getByTestId('preview-record').first().waitFor({ state: 'attached' });
    const shown = await page
      .getByTestId('preview-record')
      .evaluateAll((nodes) => nodes.map((node) => JSON.parse(node.textContent ?? 'null')));
    const own = await stack.api(
      '/products/search?fields=id,productCode,name,displayOnWeb,supplierCost&sort=code&order=asc&size=5',
      { token: accessToken },
    );
    expect(own.status).toBe(200);
    const ownData = (own.body as { data: unknown[] }).data;
    expect(ownData).toHaveLength(5);
    expect(shown).toEqual(ownData);
    for (const record of shown) expect(typeof record.displayOnWeb).toBe('boolean');

    // Rescope: without brands.read, the token server refuses that scope from now on.
    await page.getByRole('link', { name: 'Clients' }).click();
    await rowAction(page, clientName, 'Edit');
    const editor = page.getByRole('region', { name: `Edit ${clientName}` });
    await editor.getByRole('checkbox', { name: 'brands.read' }).uncheck();
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.waitFor({ state: 'detached' });
    await expect(clientRow(page, clientName).getByText('brands.read').count()).resolves.toBe(0);

    // A secret is never rotated in place (spec 3 rule 3): Duplicate opens the create form on this
    // client's fields for its replacement (clients-list.test.ts goes on to create it and revoke this one).
    await rowAction(page, clientName, 'Duplicate…');
    const duplicate = page.getByRole('region', { name: `Duplicate ${clientName}` });
    await expect(duplicate.getByLabel('Client name').inputValue()).resolves.toBe(`${clientName} replacement`);
    await expect(duplicate.getByLabel('Channel').inputValue()).resolves.toBe(channelSlug);
    await expect(duplicate.getByRole('checkbox', { name: 'brands.read' }).isChecked()).resolves.toBe(false);
    await duplicate.getByRole('button', { name: 'Cancel' }).click();
    await duplicate.waitFor({ state: 'detached' });
    const narrowed = await requestAccessToken({
      authUrl: stack.authUrl,
      ca: stack.ca,
      clientId,
      clientSecret: secret,
      scopes: ['brands.read'],
    });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body).toContain('invalid_scope');

    // Revoke: the button waits for the typed name; then the row says who revoked it and when.
    await rowAction(page, clientName, 'Revoke');
    const confirm = page.getByRole('region', { name: `Revoke ${clientName}` });
    const revokeButton = confirm.getByRole('button', { name: 'Revoke client' });
    await expect(revokeButton.isDisabled()).resolves.toBe(true);
    expect(await axeViolations(page), 'revoke panel').toEqual([]);
    await confirm.getByLabel(`Type ${clientName} to confirm`).fill(clientName.toUpperCase());
    await expect(revokeButton.isDisabled()).resolves.toBe(true);
    await confirm.getByLabel(`Type ${clientName} to confirm`).fill(clientName);
    await revokeButton.click();
    const revokedRow = clientRow(page, clientName);
    await revokedRow.getByText(/Revoked by/).waitFor();
    expect(await revokedRow.textContent()).toContain(admin.email);

    const refused = await stack.api('/products/search?size=1', { token: accessToken });
    expect(refused.status).toBe(403);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('two administrators editing one client: the later save is refused as "changed by someone else since you opened it", and Reload shows the other change', async () => {
    const adminToken = await stack.adminIdToken();
    const clientName = 'Two admins';
    const created = await stack.api('/oauth/clients', {
      method: 'POST',
      token: adminToken,
      body: { clientName, scopes: ['products.read'] },
    });
    expect(created.status).toBe(201);
    const clientId = (created.body as { clientId: string }).clientId;
    const { context, page, problems } = await signedInPage();
    await rowAction(page, clientName, 'Edit');
    const editor = page.getByRole('region', { name: `Edit ${clientName}` });
    const description = editor.getByLabel('Description');
    // The form opens on the client's current version; the other administrator saves after that.
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    const elsewhere = await stack.api(`/oauth/clients/${clientId}`, {
      method: 'PUT',
      token: adminToken,
      body: { description: 'changed in another tab' },
    });
    expect(elsewhere.status).toBe(200);

    await description.fill('my change');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    const alert = editor.getByRole('alert');
    await alert.getByText('was changed by someone else since you opened it').waitFor();
    const stored = await stack.api(`/oauth/clients/${clientId}`, { token: adminToken });
    expect((stored.body as { description?: string }).description).toBe('changed in another tab');

    await alert.getByRole('button', { name: 'Reload' }).click();
    await alert.waitFor({ state: 'detached' });
    // The form is closed while the current version loads; open again, it holds that version.
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    await expect(description.inputValue()).resolves.toBe('changed in another tab');
    await description.fill('my change, after reading theirs');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.waitFor({ state: 'detached' });
    const saved = await stack.api(`/oauth/clients/${clientId}`, { token: adminToken });
    expect((saved.body as { description?: string }).description).toBe('my change, after reading theirs');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('editing a client down to no scope is refused in the form (a client without scopes can obtain no token), and the API is not called', async () => {
    const adminToken = await stack.adminIdToken();
    const clientName = 'Needs a scope';
    const created = await stack.api('/oauth/clients', {
      method: 'POST',
      token: adminToken,
      body: { clientName, scopes: ['products.read'] },
    });
    const clientId = (created.body as { clientId: string }).clientId;
    const { context, page, problems } = await signedInPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') sent.push(request.url());
    });
    await rowAction(page, clientName, 'Edit');
    const editor = page.getByRole('region', { name: `Edit ${clientName}` });
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    await editor.getByRole('checkbox', { name: 'products.read' }).uncheck();
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await editor.getByText('Choose at least one scope').waitFor();
    expect(sent).toEqual([]);
    const stored = await stack.api(`/oauth/clients/${clientId}`, { token: adminToken });
    expect((stored.body as { scopes: string[] }).scopes).toEqual(['products.read']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('web channels: a second channel of the same name (any letter case) is refused next to its name, and the last success is no longer shown beside the new failure', async () => {
    const suffix = Date.now().toString(36);
    const { context, page, problems } = await signedInPage();
    await page.getByRole('link', { name: 'Web channels' }).click();
    const form = page.getByRole('region', { name: 'New web channel' });
    await form.getByLabel('Slug').fill(`first-${suffix}`);
    await form.getByLabel('Name').fill(`Shop ${suffix}`);
    await form.getByRole('button', { name: 'Create channel' }).click();
    const added = page.getByText(`Channel first-${suffix} was added.`);
    await added.waitFor();
    await form.getByLabel('Slug').fill(`second-${suffix}`);
    await form.getByLabel('Name').fill(`SHOP ${suffix}`);
    const refusal = page.waitForResponse(
      (response) => response.url().endsWith('/company-settings/web-channels') && response.status() === 400,
    );
    await form.getByRole('button', { name: 'Create channel' }).click();
    const answer = await refusal;
    await form.getByText('The channel was not added.').waitFor();
    await expect(added.count()).resolves.toBe(0);
    // The API's request id is shown, so an administrator can quote it to support.
    await form.getByText(`Request ID: ${answer.headers()['x-request-id']}`).waitFor();
    // Next to the name field: its error text, which the field's aria-describedby names.
    await form.locator('#new-channel-name-error').getByText('is the name of another web channel').waitFor();
    const channels = await stack.api('/company-settings/web-channels', { token: await stack.adminIdToken() });
    const slugs = (channels.body as { channels: { slug: string }[] }).channels.map((channel) => channel.slug);
    expect(slugs).toContain(`first-${suffix}`);
    expect(slugs).not.toContain(`second-${suffix}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a form is checked in the browser with the API's own schema first: each reason next to its field, in words (the character at fault, the limit), and nothing is sent", async () => {
    const { context, page, problems } = await signedInPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') sent.push(request.url());
    });
    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByLabel('Client name').fill('Acme Corp. ERP');
    await page.getByLabel('Expires in (days)').fill('400');
    await page.getByRole('button', { name: 'Create client' }).click();
    const form = page.getByRole('region', { name: 'New client' });
    await form.getByRole('alert').getByText('2 fields need a change').waitFor();
    for (const [label, message] of [
      ['Client name', 'Client name must not contain “.”'],
      ['Expires in (days)', 'Expires in (days) must be at most 365.'],
    ] as const) {
      const field = page.getByLabel(label);
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      const [errorId] = String(await field.getAttribute('aria-describedby')).split(' ');
      await expect(page.locator(`[id="${errorId}"]`).textContent()).resolves.toContain(message);
    }
    expect(sent).toEqual([]);
    // Corrected, the same form is sent and the client created.
    await page.getByLabel('Client name').fill(`Acme Corp ERP ${Date.now().toString(36)}`);
    await page.getByLabel('Expires in (days)').fill('365');
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { name: 'Client created — copy the secret now' }).waitFor();
    expect(sent).toHaveLength(1);
    await page.getByRole('button', { name: /I have stored the secret/ }).click();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('clients expiring within 14 days stand out; the status and free-text filters narrow the table', async () => {
    const suffix = Date.now().toString(36);
    const soon = await stack.createClient(['products.read'], {
      clientName: `Expiring feed ${suffix}`,
      expiresInDays: 5,
    });
    const later = await stack.createClient(['products.read'], { clientName: `Yearly feed ${suffix}` });
    await stack.api(`/oauth/clients/${later.clientId}`, {
      method: 'DELETE',
      token: await stack.adminIdToken(),
    });
    const { context, page } = await signedInPage();
    await clientRow(page, `Expiring feed ${suffix}`).getByText('Expires in 5 days').waitFor();

    // The table is filtered as the page renders it: wait for the rows it shows, not for a count at once.
    const rowsShown = (count: number) =>
      page.waitForFunction(
        ([text, expected]) =>
          Array.from(document.querySelectorAll('tbody tr')).filter((row) =>
            row.textContent?.includes(String(text)),
          ).length === expected,
        [suffix, count] as const,
      );
    await page.getByLabel('Search clients').fill(suffix);
    await rowsShown(2);
    await page.getByLabel('Status').selectOption('revoked');
    await rowsShown(1);
    await clientRow(page, `Yearly feed ${suffix}`)
      .getByText(/Revoked by/)
      .waitFor();
    await page.getByLabel('Status').selectOption('active');
    await rowsShown(1);
    await clientRow(page, `Expiring feed ${suffix}`).waitFor();
    expect(soon.clientId).toMatch(/^[a-zA-Z0-9]{26}$/);
    await context.close();
  });

  it('a client past its expiry is shown, filtered and chosen as expired, never as active', async () => {
    const name = `Lapsed feed ${Date.now().toString(36)}`;
    const lapsed = await stack.createClient(['products.read'], { clientName: name, expiresInDays: 1 });
    await ageClientPastExpiry(stack, lapsed.clientId);
    const { context, page, problems } = await signedInPage();
    await page.getByLabel('Search clients').fill(name);
    const row = clientRow(page, name);
    await expect(row.locator('.status').textContent()).resolves.toBe('expired');
    await page.getByLabel('Status').selectOption('active');
    await expect(page.getByRole('row').filter({ hasText: name }).count()).resolves.toBe(0);
    await page.getByLabel('Status').selectOption('expired');
    await expect(page.getByRole('row').filter({ hasText: name }).count()).resolves.toBe(1);
    // The preview's client list names it as expired, with its id.
    await page.getByRole('link', { name: 'See what an integrator sees' }).click();
    const option = page.locator('option', { hasText: name });
    await expect(option.textContent()).resolves.toBe(`${name} (expired) · ${lapsed.clientId}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a signed-in user outside the admin group sees "Admin role required"', async () => {
    const email = `viewer.${Date.now()}@example.test`;
    const added = await stack.operator('admin', ['users', 'add', '--email', email, '--group', 'viewer']);
    expect(added.code).toBe(0);
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    await signInThroughConsole(page, stack, { email, password: ADMIN_PASSWORD });
    await page.getByRole('heading', { level: 1, name: 'Admin role required' }).waitFor();
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it("an ID token that expires mid-session, once the token server's session has ended too, signs the administrator out cleanly", async () => {
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    const problems = watchPageProblems(page);
    await page.clock.install();
    await signInThroughConsole(page, stack, admin);
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
    // The token server's session ends with its cookie (which expires with it): the console's silent
    // renewal, 80% into the token's hour, is answered login_required and the token is kept until it
    // expires. (While that session lasts the renewal keeps the administrator in: sessions.test.ts.)
    await context.clearCookies();
    const refused = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return (
        url.pathname.endsWith('/console/silent-callback') &&
        url.searchParams.get('error') === 'login_required'
      );
    });
    await page.clock.fastForward('00:50:00');
    await refused;
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' }).isVisible()).resolves.toBe(true);
    await page.clock.fastForward('01:10:00');
    await page.getByRole('heading', { level: 1, name: 'Your session has ended' }).waitFor();
    await expect(page.getByRole('button', { name: 'Sign in again' }).isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await storedInBrowser(context, page)).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`every page passes axe-core with no violation at any impact and fits the screen at ${VIEWPORTS[viewport].width} px`, async () => {
      const signedOut = await newConsoleContext(browser, viewport);
      const first = await signedOut.newPage();
      await first.goto(consoleUrl(stack));
      await first.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await axeViolations(first), 'sign-in page').toEqual([]);
      expect(await overflowsHorizontally(first), 'sign-in page').toBe(false);
      await signedOut.close();

      // A client of its own, so that a row's edit panel can be opened whichever tests ran before.
      await stack.createClient(['products.read'], {
        clientName: `Axe check ${viewport} ${Date.now().toString(36)}`,
      });
      const { context, page, problems } = await signedInPage(viewport);
      for (const [link, heading] of [
        ['Clients', 'Clients'],
        ['Web channels', 'Web channels'],
        ['See what an integrator sees', 'See what an integrator sees'],
      ] as const) {
        await page.getByRole('link', { name: link }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page
          .getByRole('status')
          .filter({ hasText: /Loading/ })
          .waitFor({ state: 'detached' });
        expect(await axeViolations(page), heading).toEqual([]);
        expect(await overflowsHorizontally(page), heading).toBe(false);
      }
      // The forms that open on request: a new client, and a row's edit panel.
      await page.getByRole('link', { name: 'Clients' }).click();
      await page.getByRole('button', { name: 'New client' }).click();
      await page.getByLabel('Client name').waitFor();
      await page
        .getByRole('button', { name: /^Actions / })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
      expect(await axeViolations(page), 'new-client and edit forms').toEqual([]);
      expect(await overflowsHorizontally(page), 'new-client and edit forms').toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
