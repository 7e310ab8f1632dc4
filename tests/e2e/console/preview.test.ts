// "See what an integrator sees" in real headless Chromium against both real servers: the table shows
// the fields the search asked for, and its pages go both ways, each exactly what the client's own
// token gets for that page.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';
import { newConsoleContext, watchPageProblems } from './support/browser.ts';
import { signInThroughConsole } from './support/console-stack.ts';
import { startConsoleSuite } from './support/console-suite.ts';

let stack: E2EStack;
let browser: Browser;

beforeAll(async () => {
  ({ stack, browser } = await startConsoleSuite({ demoProducts: 30 }));
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('search preview', () => {
  it('the table shows the asked fields as columns (a withheld one as omitted), and Next then Previous show exactly the pages the client’s own token gets', async () => {
    const clientName = `Preview pages ${Date.now().toString(36)}`;
    const credentials = await stack.createClient(['products.read'], { clientName });
    const token = await stack.accessToken(credentials, ['products.read']);
    const fields = 'productCode,name,internalNote';
    const own = async (syncToken?: string) => {
      const query = `fields=${fields}&sort=code&order=asc&size=5${syncToken ? `&syncToken=${syncToken}` : ''}`;
      const reply = await stack.api(`/products/search?${query}`, { token });
      expect(reply.status).toBe(200);
      return reply.body as { data: { id: string }[]; syncToken: string | null };
    };
    const first = await own();
    const second = await own(first.syncToken ?? undefined);

    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    const problems = watchPageProblems(page);
    await signInThroughConsole(page, stack, { email: await stack.adminEmail(), password: ADMIN_PASSWORD });
    await page.getByRole('link', { name: 'See what an integrator sees' }).click();
    await page.getByLabel('Client', { exact: true }).selectOption(credentials.clientId);
    await page.getByLabel('Fields').fill(fields);
    await page.getByLabel('Sort by').selectOption('code');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByLabel('Page size').fill('5');
    await page.getByRole('button', { name: 'Run search' }).click();

    const results = page.getByRole('region', { name: 'What the integrator receives' });
    // The count line names the page shown; the rows come in the same render.
    const shownIds = () => results.getByRole('rowheader').allTextContents();
    await results.getByText('Page 1:').waitFor();
    const headers = await results.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['id', 'productCode', 'name', 'internalNote', 'Record']);
    await expect(results.getByRole('cell', { name: '(omitted)' }).count()).resolves.toBe(5);
    expect(await shownIds()).toEqual(first.data.map((record) => record.id));

    await results.getByRole('button', { name: 'Next page' }).click();
    await results.getByText('Page 2:').waitFor();
    expect(await shownIds()).toEqual(second.data.map((record) => record.id));

    await results.getByRole('button', { name: 'Previous page' }).click();
    await results.getByText('Page 1:').waitFor();
    expect(await shownIds()).toEqual(first.data.map((record) => record.id));
    await expect(results.getByRole('button', { name: 'Previous page' }).isDisabled()).resolves.toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a field error from the API appears under its field without moving or stretching the fields beside it', async () => {
    const context = await newConsoleContext(browser);
    const page = await context.newPage();
    const problems = watchPageProblems(page);
    await signInThroughConsole(page, stack, { email: await stack.adminEmail(), password: ADMIN_PASSWORD });
    await page.getByRole('link', { name: 'See what an integrator sees' }).click();
    await page.getByRole('radio', { name: /hypothetical client/ }).check();
    const field = page.getByLabel('Updated after (ISO date-time)');
    /** Where the controls beside the field in its row of the grid are on the page (not the viewport). */
    const rowBoxes = () =>
      page.evaluate(() => {
        const controls = Array.from(
          document.querySelectorAll<HTMLElement>('.field-grid input, .field-grid select'),
        );
        const target = document.getElementById('preview-updated-after');
        const top = target?.getBoundingClientRect().top ?? 0;
        return controls
          .filter((control) => control !== target && Math.abs(control.getBoundingClientRect().top - top) < 1)
          .map((control) => {
            const box = control.getBoundingClientRect();
            return { id: control.id, top: box.top + window.scrollY, height: box.height };
          });
      });
    const before = await rowBoxes();
    expect(before.length).toBeGreaterThan(0);
    await field.fill('yesterday');
    await page.getByRole('button', { name: 'Run search' }).click();
    await page.locator('#preview-updated-after-error').waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await rowBoxes()).toEqual(before);
    expect(problems).toEqual([]);
    await context.close();
  });
});
