// The console's Webhooks pages (issue 31) in real headless Chromium against both real servers: an
// administrator subscribes a client's HTTPS endpoint (a real receiver on loopback with a certificate
// from the stack's local CA), sees the signing secret once, disables and enables, rotates, edits
// against a stale ETag, watches a catalogue change arrive in the delivery log, redelivers it and a
// time range, and deletes; axe-core on every webhooks page and panel at 1280 and 390 px; every
// control reached with the keyboard.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, uniqueCode } from '../conformance/support/catalogue.ts';
import { contractCall } from '../conformance/support/contract.ts';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import { eventOf, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
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

/** Every wait of this file: what a loaded machine ten times slower than a quiet one needs. */
const WAIT_MS = 120_000;
const TEST_MS = 600_000;

let stack: E2EStack;
let browser: Awaited<ReturnType<typeof startConsoleSuite>>['browser'];
let admin: { email: string; password: string };
let adminToken: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite({
    demoProducts: 50,
    // The development setting: the receiver is on loopback. Its certificate is the stack's own, from
    // the local CA, which the API trusts for webhooks by default (WEBHOOK_CA_FILE unset).
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '50' },
  }));
  admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
  adminToken = await stack.adminIdToken();
  receiver = await startWebhookReceiver(stack.dataDir);
}, TEST_MS);

afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await stack?.stop();
});

async function signedInPage(viewport: ViewportName = 'desktop', startPage = 'webhooks') {
  const context = await newConsoleContext(browser, viewport);
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await signInThroughConsole(page, stack, admin, startPage);
  return { context, page, problems };
}

const asAdmin = (path: string, method = 'GET', body?: unknown, headers?: Record<string, string>) =>
  stack.api(path, {
    method,
    token: adminToken,
    ...(body === undefined ? {} : { body }),
    ...(headers ? { headers } : {}),
  });

/** A subscription made through the API, for the tests that look at pages rather than make one. */
async function subscribeByApi(clientId: string, path: string): Promise<{ id: string; url: string }> {
  const url = receiver.url(path);
  const reply = await asAdmin('/admin/webhook-subscriptions', 'POST', {
    clientId,
    url,
    eventTypes: ['product.created', 'product.changed'],
    description: `Console check ${path}`,
  });
  if (reply.status !== 201)
    throw new Error(`POST /admin/webhook-subscriptions → ${reply.status}: ${reply.text}`);
  return { id: String((reply.body as { id: string }).id), url };
}

/** A product change, and the receiver's copy of its event at `path`. */
async function productChangeDeliveredTo(path: string): Promise<string> {
  const product = await createProduct(contractCall(stack), adminToken, {
    productCode: uniqueCode('HOOK'),
    name: `Hooked ${Date.now().toString(36)}`,
  });
  await receiver.until(
    (received) =>
      received.some((webhook) => webhook.path === path && eventOf(webhook).data.id === product.id),
    `the product.created event of ${product.id} at ${path}`,
  );
  return product.id;
}

/** Waits until no "Loading…" status is shown. */
const loaded = (page: Page) =>
  page
    .getByRole('status')
    .filter({ hasText: /Loading/ })
    .waitFor({ state: 'detached' });

/** Presses Refresh until the delivery log shows a row of `entityId` with `status`: the worker runs in the API. */
async function logShows(page: Page, entityId: string, status: string): Promise<void> {
  const row = page.locator(`tr[data-status="${status}"]`).filter({ hasText: entityId });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await loaded(page);
    if ((await row.count()) > 0) return;
    if (Date.now() > deadline) throw new Error(`the delivery log never showed ${entityId} as ${status}`);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  }
}

/** A datetime-local value (UTC: the browser's zone in these contexts) `minutes` from now. */
const localInput = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16);

/** The focused element's name, as far as these pages' controls need it. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (element === null) return '';
    const label = (element as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return (element.getAttribute('aria-label') || label || element.textContent || '')
      .replace(/\s+/g, ' ')
      .trim();
  });

/** Tabs from where the focus is until `name` is focused: what a keyboard user does. */
async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  for (let presses = 0; presses < 200; presses++) {
    await page.keyboard.press('Tab');
    const current = await focusedName(page);
    if (typeof name === 'string' ? current === name : name.test(current)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

describe('console: webhooks', () => {
  it(
    'a subscription’s life: created with the secret shown once (leave guard, verify hint), disabled and enabled, secret rotated with its overlap, a stale edit refused with the conflict message, a product change seen as succeeded in the delivery log, redelivered alone and by time range, deleted',
    async () => {
      const suffix = Date.now().toString(36);
      const clientName = `Hooked shop ${suffix}`;
      const client = await stack.createClient(['products.read'], { clientName });
      const { context, page, problems } = await signedInPage('desktop', 'clients');
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });

      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await expect(
        page.getByRole('link', { name: 'Webhooks', exact: true }).getAttribute('aria-current'),
      ).resolves.toBe('page');

      // The form: the client's scopes allow product.* only; brand.changed is disabled and says why.
      await page.getByRole('button', { name: 'New subscription' }).click();
      const form = page.getByRole('region', { name: 'New subscription' });
      await form.getByLabel('Client').selectOption(client.clientId);
      const brand = form.getByRole('checkbox', { name: 'brand.changed' });
      await expect(brand.isDisabled()).resolves.toBe(true);
      await form.getByText('Needs the client’s brands.read scope, which it does not have.').waitFor();
      await expect(form.getByRole('checkbox', { name: 'product.created' }).isDisabled()).resolves.toBe(false);

      // A URL the API refuses (not https): its message next to the field.
      await form.getByLabel('Endpoint URL').fill('http://localhost/hooks');
      await form.getByRole('checkbox', { name: 'product.created' }).check();
      await form.getByRole('button', { name: 'Create subscription' }).click();
      await form.getByRole('alert').filter({ hasText: 'The subscription was not created.' }).waitFor();

      const url = receiver.url(`/console-${suffix}`);
      await form.getByLabel('Endpoint URL').fill(url);
      await form.getByRole('checkbox', { name: 'product.changed' }).check();
      await form.getByLabel('Description (optional)').fill('Price feed of the web shop');
      await form.getByRole('button', { name: 'Create subscription' }).click();

      // The secret, once: copy button, "shown once", the SDK's verifyWebhook.
      const created = page.getByRole('region', {
        name: 'Subscription created — copy the signing secret now',
      });
      await created.waitFor();
      const secret = await created.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await created.getByText('The signing secret is shown once').waitFor();
      await created.getByText('verifyWebhook').waitFor();
      await created.getByRole('button', { name: 'Copy secret' }).click();
      await created.getByText('Copied').waitFor();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
      const subscriptionId = (await created.getByTestId('subscription-id').textContent()) ?? '';
      expect(subscriptionId).toMatch(/^[a-zA-Z0-9]{26}$/);

      // Leaving while it shows asks first; staying keeps it.
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Clients', exact: true }).click();
      expect(asked[0]).toContain('shown only this once');
      await expect(created.isVisible()).resolves.toBe(true);
      await created.getByRole('button', { name: 'Done — I have stored the secret' }).click();
      await created.waitFor({ state: 'detached' });
      await expect(page.content()).resolves.not.toContain(secret);

      // The list: endpoint, client, event types, state, last success; filtered by client.
      const row = page.locator(`tr[data-subscription-id="${subscriptionId}"]`);
      await row.waitFor();
      await row.getByText(clientName).waitFor();
      await row.getByText('product.created, product.changed').waitFor();
      await row.getByText('active', { exact: true }).waitFor();
      await page.getByLabel('Client', { exact: true }).selectOption(client.clientId);
      await page.waitForURL((current) => current.searchParams.get('clientId') === client.clientId);
      await loaded(page);
      await row.waitFor();
      await expect(page.locator('tr[data-subscription-id]').count()).resolves.toBe(1);

      // Its page, by the link a new tab would open too (the API serves the deep link).
      await row.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhook subscription' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/console/webhooks/${subscriptionId}`);
      const deepLink = await stack.api(`/console/webhooks/${subscriptionId}`);
      expect(deepLink.status).toBe(200);
      expect(deepLink.text).toContain('<base href="');

      // Disable: the alert says what happened and what to do; Enable from it.
      await page.getByRole('button', { name: 'Disable', exact: true }).click();
      const alert = page.getByRole('region', { name: 'This subscription is disabled' });
      await alert.waitFor();
      await alert.getByText('Disabled by an administrator').waitFor();
      await alert.getByText('What to do:').waitFor();
      await alert.getByRole('button', { name: 'Enable', exact: true }).click();
      await alert.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();

      // Rotate with the default overlap: a new secret once, and until when the old one signs.
      await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
      const rotate = page.getByRole('region', { name: 'Rotate the signing secret' });
      await expect(rotate.getByLabel('Old secret still signs for (hours)').inputValue()).resolves.toBe('24');
      await rotate.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = page.getByRole('region', { name: 'Secret rotated — copy the new signing secret now' });
      await rotated.waitFor();
      const newSecret = await rotated.getByLabel('Signing secret').inputValue();
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(secret);
      await rotated
        .getByText(/The old secret still signs deliveries until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/)
        .waitFor();
      await rotated.getByRole('button', { name: 'Done — I have stored the secret' }).click();
      await rotated.waitFor({ state: 'detached' });

      // Edit against a version someone else changed meanwhile: refused, said so, Reload shows theirs.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('region', { name: 'Edit subscription' });
      const description = edit.getByLabel('Description');
      await page.waitForFunction(() => document.querySelector('fieldset[aria-busy="false"]') !== null);
      const elsewhere = await asAdmin(`/admin/webhook-subscriptions/${subscriptionId}`, 'PATCH', {
        description: 'Changed by a colleague',
      });
      expect(elsewhere.status, elsewhere.text).toBe(200);
      await description.fill('Changed by me');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      const conflict = edit
        .getByRole('alert')
        .filter({ hasText: 'changed by someone else since you opened it' });
      await conflict.waitFor();
      await conflict.getByRole('button', { name: 'Reload' }).click();
      await conflict.waitFor({ state: 'detached' });
      // The form is closed while the current version loads, then shows it: wait for that state.
      await page.waitForFunction(() => document.querySelector('fieldset[aria-busy="false"]') !== null);
      await expect.poll(() => description.inputValue(), { timeout: 60_000 }).toBe('Changed by a colleague');
      await description.fill('Price feed, second shop');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The subscription was updated.').waitFor();
      await page.getByText('Price feed, second shop').waitFor();

      // A product change reaches the receiver and shows in the log as succeeded.
      const productId = await productChangeDeliveredTo(`/console-${suffix}`);
      await logShows(page, productId, 'succeeded');
      const delivered = page.locator('tr[data-status="succeeded"]').filter({ hasText: productId });
      await delivered.getByText('product.created', { exact: true }).waitFor();
      await expect(delivered.locator('td[data-label="Last status code"]').textContent()).resolves.toBe('204');
      await expect(delivered.locator('td[data-label="Attempts"]').textContent()).resolves.toBe('1');

      // Redeliver that one: the receiver gets the same event id again.
      const eventIds = () =>
        receiver.received
          .filter(
            (webhook) => webhook.path === `/console-${suffix}` && eventOf(webhook).data.id === productId,
          )
          .map((webhook) => String(webhook.headers['webhook-id']));
      const firstId = eventIds()[0];
      await delivered
        .getByRole('button', { name: `Redeliver the product.created event of ${productId}` })
        .click();
      await page.getByText(`The product.created event of ${productId} was queued again.`).waitFor();
      await receiver.until(
        () => eventIds().filter((id) => id === firstId).length >= 2,
        'the redelivered event',
      );

      // A time range around it, in the browser's zone (UTC here, said on the form).
      const range = page.getByRole('region', { name: 'Redeliver a time range' });
      await range.getByText('Times are in your browser’s time zone, UTC').waitFor();
      await range.getByLabel('To (UTC)').fill(localInput(-60));
      await range.getByLabel('From (UTC)').fill(localInput(60));
      await range.getByRole('button', { name: 'Redeliver range' }).click();
      await range.getByText('To must be after From').waitFor();
      await range.getByLabel('From (UTC)').fill(localInput(-60));
      await range.getByLabel('To (UTC)').fill(localInput(60));
      await range.getByRole('button', { name: 'Redeliver range' }).click();
      await page.getByText(/^\d+ deliver(y was|ies were) queued again\.$/).waitFor();

      // Delete, confirmed: back to the list, gone there and from the API.
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('region', { name: 'Delete this subscription?' });
      await confirm.getByRole('button', { name: 'Delete subscription' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await loaded(page);
      await expect(page.locator(`tr[data-subscription-id="${subscriptionId}"]`).count()).resolves.toBe(0);
      await expect(
        asAdmin(`/admin/webhook-subscriptions/${subscriptionId}`).then((r) => r.status),
      ).resolves.toBe(404);
      expect(problems).toEqual([]);
      await context.close();
    },
    TEST_MS,
  );

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(
      `the webhooks pages and their panels pass axe-core with no violation at any impact and fit the screen at ${VIEWPORTS[viewport].width} px`,
      async () => {
        const suffix = `${viewport}-${Date.now().toString(36)}`;
        const client = await stack.createClient(['products.read'], { clientName: `Axe hooks ${suffix}` });
        const working = await subscribeByApi(client.clientId, `/axe-${suffix}`);
        const disabled = await subscribeByApi(client.clientId, `/axe-off-${suffix}`);
        const off = await asAdmin(`/admin/webhook-subscriptions/${disabled.id}`, 'PATCH', { enabled: false });
        expect(off.status, off.text).toBe(200);
        const productId = await productChangeDeliveredTo(`/axe-${suffix}`);

        const { context, page, problems } = await signedInPage(viewport);
        const check = async (what: string) => {
          expect(await axeViolations(page), what).toEqual([]);
          expect(await overflowsHorizontally(page), what).toBe(false);
        };
        await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
        await loaded(page);
        await page.locator(`tr[data-subscription-id="${working.id}"]`).waitFor();
        await check('webhooks list');
        await page.getByRole('button', { name: 'New subscription' }).click();
        await page
          .getByRole('region', { name: 'New subscription' })
          .getByLabel('Client')
          .selectOption(client.clientId);
        await check('new-subscription form');
        await page
          .locator(`tr[data-subscription-id="${working.id}"]`)
          .getByRole('button', { name: /^Actions / })
          .click();
        await page.getByRole('menu').waitFor();
        await check('a row’s actions menu');
        await page.keyboard.press('Escape');

        await page.goto(`${stack.baseUrl}/console/webhooks/${working.id}`);
        await page.getByRole('heading', { level: 1, name: 'Webhook subscription' }).waitFor();
        await logShows(page, productId, 'succeeded');
        await check('a subscription’s page with its delivery log');
        for (const [button, region] of [
          ['Edit', 'Edit subscription'],
          ['Rotate secret', 'Rotate the signing secret'],
          ['Delete', 'Delete this subscription?'],
        ] as const) {
          await page.getByRole('button', { name: button, exact: true }).click();
          await page.getByRole('region', { name: region }).waitFor();
          await check(`${button} panel`);
          await page.getByRole('region', { name: region }).getByRole('button', { name: 'Cancel' }).click();
        }
        // Rotated: the one-time secret panel.
        await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
        await page
          .getByRole('region', { name: 'Rotate the signing secret' })
          .getByRole('button', { name: 'Rotate secret' })
          .click();
        await page
          .getByRole('region', { name: 'Secret rotated — copy the new signing secret now' })
          .waitFor();
        await check('rotated-secret panel');
        await page.getByRole('button', { name: 'Done — I have stored the secret' }).click();

        // A disabled subscription: its alert on top.
        await page.goto(`${stack.baseUrl}/console/webhooks/${disabled.id}`);
        await page.getByRole('region', { name: 'This subscription is disabled' }).waitFor();
        await loaded(page);
        await check('a disabled subscription’s page');
        expect(problems).toEqual([]);
        await context.close();
      },
      TEST_MS,
    );
  }

  it(
    'every control of the webhooks pages is reached with Tab, and a row’s actions menu works by keyboard',
    async () => {
      const suffix = Date.now().toString(36);
      const client = await stack.createClient(['products.read'], { clientName: `Keyboard hooks ${suffix}` });
      const subscription = await subscribeByApi(client.clientId, `/keys-${suffix}`);
      const productId = await productChangeDeliveredTo(`/keys-${suffix}`);
      const { context, page, problems } = await signedInPage();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await loaded(page);

      // The list: New subscription, the client filter, the row's link and Actions.
      await page.locator('body').focus();
      await tabTo(page, 'Skip to main content');
      await tabTo(page, 'New subscription');
      await tabTo(page, 'Client');
      await tabTo(page, subscription.url);
      await tabTo(page, /^Actions for /);
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Open' }).and(page.locator(':focus')).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.getByRole('menuitem', { name: 'Disable' }).and(page.locator(':focus')).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Open' }).and(page.locator(':focus')).waitFor();
      await page.keyboard.press('Enter');

      // The subscription's page, from its heading down to the range form.
      await page.getByRole('heading', { level: 1, name: 'Webhook subscription' }).waitFor();
      await logShows(page, productId, 'succeeded');
      await page.getByRole('link', { name: 'All webhook subscriptions' }).focus();
      for (const name of [
        `Keyboard hooks ${suffix}`,
        'Disable',
        'Edit',
        'Rotate secret',
        'Delete',
        'Status',
        'Refresh',
        /^Deliveries table/,
        `Redeliver the product.created event of ${productId}`,
        'From (UTC)',
        'To (UTC)',
        'Redeliver range',
      ])
        await tabTo(page, name);

      // Panels open and close by keyboard, the focus back on their button.
      await page.getByRole('button', { name: 'Edit', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('region', { name: 'Edit subscription' })
        .getByLabel('Endpoint URL')
        .and(page.locator(':focus'))
        .waitFor();
      await tabTo(page, 'product.created');
      await tabTo(page, 'Save changes');
      await page.keyboard.press('Escape');
      await page.getByRole('region', { name: 'Edit subscription' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Edit', exact: true }).and(page.locator(':focus')).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    },
    TEST_MS,
  );
});
