// Regenerates the console's screenshots under docs/console/ (linked from the README): both servers
// from their build output on a fresh DATA_DIR, a few channels and clients made through the API as an
// administrator would, then every page of the console in Debian's Chromium at 1280×800 and 390 px.
//   pnpm build && pnpm --filter @catalog/e2e run console:screenshots
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import {
  launchChromium,
  newConsoleContext,
  VIEWPORTS,
  type ViewportName,
} from '../console/support/browser.ts';
import { consoleUrl, signInThroughConsole, startConsoleStack } from '../console/support/console-stack.ts';
import { ADMIN_PASSWORD, type E2EStack } from '../support/stack.ts';

const outDir = fileURLToPath(new URL('../../../docs/console/', import.meta.url));

async function demoData(stack: E2EStack): Promise<void> {
  const token = await stack.adminIdToken();
  const call = async (path: string, method: string, body: unknown) => {
    const reply = await stack.api(path, { method, token, body });
    if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status}: ${reply.text}`);
    return reply.body as Record<string, unknown>;
  };
  // The demo catalogue brings main-site, trade-portal and outlet; one more as an administrator adds it.
  await call('/company-settings/web-channels', 'POST', { slug: 'uk-shop', name: 'UK web shop' });
  const shop = await stack.createClient(['products.read', 'brands.read'], {
    clientName: 'UK web shop sync',
    description: 'Nightly catalogue sync of the UK storefront',
  });
  await call(`/oauth/clients/${shop.clientId}`, 'PUT', { channel: 'uk-shop' });
  await stack.accessToken(shop);
  await stack.createClient(['products.read'], {
    clientName: 'ERP price feed',
    description: 'Hourly price export to the ERP',
    expiresInDays: 7,
  });
  const old = await stack.createClient(['products.read', 'brands.read'], { clientName: 'Legacy PIM import' });
  await call(`/oauth/clients/${old.clientId}`, 'DELETE', undefined);
}

async function shoot(page: Page, name: string, viewport: ViewportName): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /Loading/ })
    .waitFor({ state: 'detached' });
  await page.screenshot({ path: `${outDir}${name}-${viewport}.png`, fullPage: true });
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const stack = await startConsoleStack({ demoProducts: 300 });
  const browser = await launchChromium();
  try {
    await demoData(stack);
    const admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const context = await newConsoleContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(consoleUrl(stack));
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await shoot(page, 'sign-in', viewport);
      await signInThroughConsole(page, stack, admin);
      await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'ERP price feed' }).waitFor();
      await shoot(page, 'clients', viewport);
      await page.getByRole('button', { name: 'New client' }).click();
      await page.getByLabel('Client name').fill(`Marketplace feed ${viewport}`);
      await page.getByRole('checkbox', { name: 'brands.read' }).check();
      await page.getByLabel('Channel').selectOption('main-site');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.getByRole('region', { name: /copy the secret now/i }).waitFor();
      await shoot(page, 'client-created', viewport);
      await page.getByRole('button', { name: /I have stored the secret/ }).click();
      await page.getByRole('link', { name: 'Web channels' }).click();
      await page.getByRole('row').filter({ hasText: 'trade-portal' }).waitFor();
      await shoot(page, 'channels', viewport);
      await page.getByRole('link', { name: 'See what an integrator sees' }).click();
      await page.getByLabel('Client', { exact: true }).selectOption({ label: 'UK web shop sync (active)' });
      await page.getByLabel('Page size').fill('5');
      await page.getByRole('button', { name: 'Run search' }).click();
      await page.getByTestId('preview-record').first().waitFor({ state: 'attached' });
      await page.locator('summary').first().click();
      await shoot(page, 'preview', viewport);
      await context.close();
      process.stdout.write(
        `screenshots at ${VIEWPORTS[viewport].width}×${VIEWPORTS[viewport].height} written\n`,
      );
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
}

await main();
