// Debian's Chromium driven by playwright-core: Playwright's own browser download cannot work on these
// machines, so the suite launches the system browser with the flags decisions.md (Scale-out) gives.
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { settings } from '../../support/settings.ts';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  narrow: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export async function launchChromium(): Promise<Browser> {
  const executablePath = settings.chromium;
  if (!existsSync(executablePath))
    throw new Error(
      `no Chromium at ${executablePath}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * A fresh browser profile (no cookies, no storage). The servers' certificates come from the stack's
 * local CA, which this throwaway profile does not trust, so certificate errors are waived for it;
 * the connections are still TLS.
 */
export async function newConsoleContext(
  browser: Browser,
  viewport: ViewportName = 'desktop',
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: VIEWPORTS[viewport],
    ignoreHTTPSErrors: true,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
}

/** Everything the page reports that a working console never should: CSP refusals, uncaught errors. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(text))
      problems.push(`console: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly targets: string[];
}

/** Every axe-core violation on the page as it is now, whatever its impact. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

/** Whether the page is wider than the viewport (a horizontal scroll bar on the whole page). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
