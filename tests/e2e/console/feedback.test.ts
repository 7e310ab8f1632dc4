// The console when the API is slow, frozen or refusing, and when leaving would lose something: in real
// headless Chromium against both real servers. The API is frozen with SIGSTOP (as a hung process or a
// stalled network looks to a browser) and the per-address limit of spec 8 is set low enough to reach.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import { newConsoleContext, watchPageProblems } from './support/browser.ts';
import { signInThroughConsole } from './support/console-stack.ts';
import { startConsoleSuite } from './support/console-suite.ts';

/** Requests one address may make in the window: room for every test before the last, which spends it. */
const IP_BUDGET = 400;
/** The console gives up on an answer after 20 s (REQUEST_TIMEOUT_MS); bounded for a far slower machine. */
const SLOW_MS = 300_000;

let stack: E2EStack;
let browser: Browser;

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite({
    demoProducts: 20,
    // The per-address window only (the gateway throttle off): its 429 carries the window's wait.
    env: { RATE_LIMIT_IP_PER_5MIN: String(IP_BUDGET) },
  }));
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signedInPage() {
  const context = await newConsoleContext(browser);
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await signInThroughConsole(page, stack, { email: await stack.adminEmail(), password: ADMIN_PASSWORD });
  return { context, page, problems };
}

const clientRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/** Picks `action` from the actions menu of the client's row. */
async function rowAction(page: Page, clientName: string, action: string): Promise<void> {
  await clientRow(page, clientName).getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** The focused element's accessible name, as far as the console's controls need it. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (element === null) return '';
    const labelledBy = element.getAttribute('aria-labelledby');
    const byId = labelledBy
      ? labelledBy
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : '';
    const label = (element as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return (element.getAttribute('aria-label') || byId || label || element.textContent || '')
      .replace(/\s+/g, ' ')
      .trim();
  });

/** Presses Tab (Shift+Tab backwards) until the focus is on `name`: what a keyboard user does. */
async function tabTo(page: Page, name: string | RegExp, backwards = false): Promise<void> {
  for (let presses = 0; presses < 300; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const current = await focusedName(page);
    if (typeof name === 'string' ? current === name : name.test(current)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

const focusIsOn = (page: Page, name: string | RegExp) =>
  page.waitForFunction(
    ([source, flags]) => {
      const element = document.activeElement as HTMLElement | null;
      const text = (element?.getAttribute('aria-label') || element?.textContent || '')
        .replace(/\s+/g, ' ')
        .trim();
      return new RegExp(source, flags).test(text);
    },
    typeof name === 'string'
      ? ([`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, ''] as const)
      : ([name.source, name.flags] as const),
  );

describe('admin console feedback and failure', () => {
  it('with the API frozen, a save times out with a message and "Try again" instead of waiting silently; once the API is back, Try again saves the change exactly once', async () => {
    const clientName = `Frozen save ${Date.now().toString(36)}`;
    const { clientId } = await stack.createClient(['products.read'], { clientName });
    const { context, page, problems } = await signedInPage();
    await rowAction(page, clientName, 'Edit');
    const editor = page.getByRole('region', { name: `Edit ${clientName}` });
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    await editor.getByLabel('Description').fill('saved after the freeze');

    const api = stack.service('api').child;
    api.kill('SIGSTOP');
    try {
      await editor.getByRole('button', { name: 'Save changes' }).click();
      // While it waits, the form says so (a status for screen readers) and cannot be saved twice; the
      // button keeps the focus (aria-disabled, not disabled, which would drop it to the page).
      await editor.getByRole('status').getByText('Saving…').waitFor();
      const save = editor.getByRole('button', { name: 'Save changes' });
      await expect(save.getAttribute('aria-disabled')).resolves.toBe('true');
      await expect(save.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
      const alert = editor.getByRole('alert');
      await alert.getByText('did not answer within 20 seconds').waitFor({ timeout: SLOW_MS });
      await expect(alert.getByRole('button', { name: 'Try again' }).isEnabled()).resolves.toBe(true);
    } finally {
      api.kill('SIGCONT');
    }
    // The frozen request may still land once the API runs again; Try again then finds its own change
    // already saved (412 on a version that says what the form says) rather than calling it a conflict.
    await editor.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
    await editor.waitFor({ state: 'detached', timeout: SLOW_MS });
    const stored = await stack.api(`/oauth/clients/${clientId}`, { token: await stack.adminIdToken() });
    expect((stored.body as { description?: string }).description).toBe('saved after the freeze');
    const updates = await stack.api(`/audit-events?action=client.update&targetId=${clientId}`, {
      token: await stack.adminIdToken(),
    });
    expect((updates.body as { events: unknown[] }).events).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('leaving the page while a new secret is shown asks first (a link, Back); staying keeps the secret on screen, and "Done" lets the administrator go without asking', async () => {
    const { context, page, problems } = await signedInPage();
    // A history entry of the console's own to go Back to.
    await page.getByRole('link', { name: 'Web channels' }).click();
    await page.getByRole('heading', { level: 1, name: 'Web channels' }).waitFor();
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByLabel('Client name').fill(`Shown once ${Date.now().toString(36)}`);
    await page.getByRole('button', { name: 'Create client' }).click();
    const created = page.getByRole('heading', { name: 'Client created — copy the secret now' });
    await created.waitFor();
    const secret = await page.getByLabel('Client secret').inputValue();

    const questions: string[] = [];
    page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Web channels' }).click();
    await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe(secret);
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => location.pathname.endsWith('/clients'));
    await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe(secret);
    expect(questions).toHaveLength(2);
    for (const question of questions) expect(question).toContain('is shown only this once');

    await page.getByRole('button', { name: /I have stored the secret/ }).click();
    await page.getByRole('link', { name: 'Web channels' }).click();
    await page.getByRole('heading', { level: 1, name: 'Web channels' }).waitFor();
    expect(questions).toHaveLength(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('by keyboard: the first Tab reaches "Skip to main content", which moves focus into the page; the navigation moves focus to the new page\'s heading; Rename focuses its field; Escape closes an edit panel and a rename, each giving the focus back to the button that opened it', async () => {
    const clientName = `Keyboard ${Date.now().toString(36)}`;
    await stack.createClient(['products.read'], { clientName });
    const { context, page, problems } = await signedInPage();
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement;
        return { tag: element?.tagName ?? '', id: element?.id ?? '', text: element?.textContent ?? '' };
      });
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toMatchObject({ tag: 'A', text: 'Skip to main content' });
    await expect(page.getByRole('link', { name: 'Skip to main content' }).isVisible()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(focused()).resolves.toMatchObject({ tag: 'MAIN', id: 'main' });

    await page.getByRole('link', { name: 'Web channels' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await expect(focused()).resolves.toMatchObject({ text: 'Web channels' });
    // Rename puts the focus in the name field; Escape closes it and gives the focus back to Rename.
    const slug = `kb-${Date.now().toString(36)}`;
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Name', { exact: true }).fill(`Keyboard shop ${slug}`);
    await page.getByRole('button', { name: 'Create channel' }).press('Enter');
    const rename = page.getByRole('button', { name: `Rename ${slug}` });
    await rename.focus();
    await page.keyboard.press('Enter');
    await expect(focused()).resolves.toMatchObject({ tag: 'INPUT', id: `rename-${slug}-name` });
    await page.keyboard.press('Escape');
    await page.waitForFunction((id) => document.activeElement?.id === id, `rename-button-${slug}`);
    await page.getByRole('link', { name: 'Clients' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');

    await rowAction(page, clientName, 'Edit');
    const editor = page.getByRole('region', { name: `Edit ${clientName}` });
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    await editor.getByLabel('Description').focus();
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    // The focus goes back to the Actions button of the client's row, not to the page.
    await page.waitForFunction((name) => {
      const active = document.activeElement;
      return (
        active?.closest('.row-menu') !== null && active?.closest('tr')?.textContent?.includes(name) === true
      );
    }, clientName);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a keyboard-only walk of every action: create, edit, duplicate and revoke a client, add and rename a channel, run the preview and sign out, each reached with Tab and done with Enter, the arrows or typing', async () => {
    const suffix = Date.now().toString(36);
    const name = `Keys only ${suffix}`;
    const { context, page, problems } = await signedInPage();
    await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();

    // Create: the form opens on its first field; Done gives the focus back to "New client".
    await tabTo(page, 'New client');
    await page.keyboard.press('Enter');
    await page.keyboard.type(name);
    await tabTo(page, 'Create client');
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'Client created — copy the secret now');
    await tabTo(page, /^Done — I have stored the secret$/);
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'New client');

    // Edit from the row's Actions menu; Save gives the focus back to that menu's button.
    await tabTo(page, `Actions for ${name}`);
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'Edit');
    await page.keyboard.press('Enter');
    const editor = page.getByRole('region', { name: `Edit ${name}` });
    await editor.locator('fieldset[aria-busy="false"]').waitFor();
    await tabTo(page, 'Description');
    await page.keyboard.type('edited by keyboard');
    await tabTo(page, 'Save changes');
    await page.keyboard.press('Enter');
    await editor.waitFor({ state: 'detached' });
    await focusIsOn(page, `Actions for ${name}`);

    // Duplicate, then revoke the old client from the walk-through.
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await focusIsOn(page, 'Duplicate…');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: `Duplicate ${name}` }).waitFor();
    await tabTo(page, 'Create client');
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'Client created — copy the secret now');
    await tabTo(page, /^Done — I have stored the secret$/);
    await page.keyboard.press('Enter');
    // Done gives the focus to New client in the next frame: on a loaded machine that frame came
    // after the walk had tabbed on and begun typing the confirmation, and took the focus from it.
    await focusIsOn(page, 'New client');
    await tabTo(page, new RegExp(`^Revoke the old client ${name}`));
    await page.keyboard.press('Enter');
    await tabTo(page, `Type ${name} to confirm`);
    await page.keyboard.type(name);
    await tabTo(page, 'Revoke client');
    await page.keyboard.press('Enter');
    await page.getByText(`${name} was revoked on`).first().waitFor();

    // Web channels: add one, rename it.
    await tabTo(page, 'Web channels', true);
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'Web channels');
    await tabTo(page, 'Slug');
    await page.keyboard.type(`keys-${suffix}`);
    await tabTo(page, 'Name');
    await page.keyboard.type(`Keys shop ${suffix}`);
    await page.keyboard.press('Enter');
    await page.getByText(`Channel keys-${suffix} was added.`).waitFor();
    await tabTo(page, `Rename keys-${suffix}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(`Keys shop ${suffix} renamed`);
    await page.keyboard.press('Enter');
    await page.getByText(`Channel keys-${suffix} was renamed to Keys shop ${suffix} renamed.`).waitFor();
    await focusIsOn(page, `Rename keys-${suffix}`);

    // The preview of the replacement client, chosen with the arrow keys.
    await tabTo(page, 'See what an integrator sees', true);
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'See what an integrator sees');
    await page
      .locator('#preview-client option', { hasText: `${name} replacement` })
      .waitFor({ state: 'attached' });
    await tabTo(page, 'Client');
    const chosen = () => page.locator('#preview-client option:checked').textContent();
    for (let presses = 0; presses < 500 && !(await chosen())?.startsWith(`${name} replacement`); presses++)
      await page.keyboard.press('ArrowDown');
    await expect(chosen()).resolves.toMatch(new RegExp(`^${name} replacement \\(active\\)`));
    await tabTo(page, 'Run search');
    await page.keyboard.press('Enter');
    await focusIsOn(page, 'What the integrator receives');

    // Sign out.
    await tabTo(page, 'Sign out', true);
    await page.keyboard.press('Enter');
    await page.getByText('You have signed out.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  // Last: it spends the address's budget for the rest of the window.
  it('a 429 says how long to wait (its Retry-After) and that the per-address budget is shared with integrations on the same address', async () => {
    const { context, page, problems } = await signedInPage();
    const token = await stack.adminIdToken();
    let refused: { status: number; headers: Record<string, unknown> } | undefined;
    for (let sent = 0; sent <= IP_BUDGET && refused === undefined; sent++) {
      const reply = await stack.api('/oauth/clients', { token });
      if (reply.status === 429) refused = reply;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(60);

    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByLabel('Client name').fill('Over the budget');
    await page.getByRole('button', { name: 'Create client' }).click();
    const alert = page.getByRole('region', { name: 'New client' }).getByRole('alert');
    await alert.getByText('Too many requests from this network address.').waitFor();
    await expect(alert.textContent()).resolves.toMatch(/Wait \d+ minutes?( \d+ seconds?)?, then try again\./);
    await expect(alert.textContent()).resolves.toContain('integrations running on the same address share');
    await alert.getByRole('button', { name: 'Try again' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
