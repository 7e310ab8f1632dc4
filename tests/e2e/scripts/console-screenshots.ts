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

/** The clients the pages show: a few an administrator would recognise, and enough for a second page. */
const FEEDS = ['Supplier', 'Marketplace', 'Warehouse', 'Catalogue print', 'Price comparison'];

async function demoData(stack: E2EStack): Promise<{ shopId: string }> {
  const token = await stack.adminIdToken();
  const call = async (path: string, method: string, body: unknown) => {
    const reply = await stack.api(path, { method, token, body });
    if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status}: ${reply.text}`);
    return reply.body as Record<string, unknown>;
  };
  // Through one administrator token: a sign-in per client would meet the token server's sign-in limit.
  const feeds = FEEDS.flatMap((name) => [1, 2, 3, 4, 5, 6].map((n) => `${name} feed ${n}`));
  for (const [index, feed] of feeds.entries())
    await call('/oauth/clients', 'POST', {
      clientName: feed,
      scopes: index % 3 === 0 ? ['products.read', 'brands.read'] : ['products.read'],
      ...(index % 4 === 0 ? { expiresInDays: 90 + index } : {}),
    });
  // The demo catalogue brings main-site, trade-portal and outlet; one more as an administrator adds it.
  await call('/company-settings/web-channels', 'POST', { slug: 'uk-shop', name: 'UK web shop' });
  const shop = await stack.createClient(['products.read', 'brands.read'], {
    clientName: 'UK web shop sync',
    description: 'Nightly catalogue sync of the UK storefront',
  });
  await call(`/oauth/clients/${shop.clientId}`, 'PUT', { channel: 'uk-shop' });
  await call(`/oauth/clients/${shop.clientId}`, 'PUT', {
    description: 'Nightly catalogue sync of the UK shop',
  });
  await stack.accessToken(shop);
  await stack.createClient(['products.read'], {
    clientName: 'ERP price feed',
    description: 'Hourly price export to the ERP',
    expiresInDays: 7,
  });
  const old = await stack.createClient(['products.read', 'brands.read'], { clientName: 'Legacy PIM import' });
  await call(`/oauth/clients/${old.clientId}`, 'DELETE', undefined);
  return { shopId: shop.clientId };
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
    const { shopId } = await demoData(stack);
    const admin = { email: await stack.adminEmail(), password: ADMIN_PASSWORD };
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const context = await newConsoleContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(consoleUrl(stack));
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await shoot(page, 'sign-in', viewport);
      await signInThroughConsole(page, stack, admin);
      await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
      await page.getByText(/^Showing 1–25 of \d+ clients/).waitFor();
      await shoot(page, 'clients', viewport);

      await page.getByRole('button', { name: 'New client' }).click();
      const form = page.getByRole('region', { name: 'New client' });
      await form.getByLabel('Client name').fill(`Marketplace feed ${viewport}`);
      await form.getByRole('checkbox', { name: 'brands.read' }).check();
      await form.getByLabel('Channel').selectOption('main-site');
      await form.getByRole('button', { name: 'Create client' }).click();
      await page.getByRole('region', { name: /copy the secret now/i }).waitFor();
      await shoot(page, 'client-created', viewport);
      await page.getByRole('button', { name: /I have stored the secret/ }).click();

      // The roll of a secret: Duplicate, then the steps that move the integration and revoke the old client.
      await page.getByLabel('Search clients').fill('UK web shop sync');
      const row = page.getByRole('row').filter({ hasText: shopId });
      await row.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Duplicate…' }).click();
      const duplicate = page.getByRole('region', { name: 'Duplicate UK web shop sync' });
      await duplicate.getByLabel('Client name').fill(`UK web shop sync ${viewport}`);
      await duplicate.getByRole('button', { name: 'Create client' }).click();
      await page.getByRole('button', { name: /I have stored the secret/ }).click();
      await page.getByRole('region', { name: /^Replace UK web shop sync: the remaining steps/ }).waitFor();
      await shoot(page, 'client-replacement', viewport);

      await page.goto(consoleUrl(stack, `clients/${shopId}`));
      await page.getByRole('heading', { level: 1, name: 'UK web shop sync' }).waitFor();
      await page
        .getByText(/^Changed description/)
        .first()
        .waitFor();
      await shoot(page, 'client-detail', viewport);

      await page.getByRole('link', { name: 'Web channels' }).click();
      await page.getByRole('row').filter({ hasText: 'trade-portal' }).waitFor();
      await shoot(page, 'channels', viewport);
      await page.getByRole('link', { name: 'See what an integrator sees' }).click();
      await page.getByLabel('Client', { exact: true }).selectOption(shopId);
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
