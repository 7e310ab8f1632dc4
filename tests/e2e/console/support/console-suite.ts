// A console suite's servers and browser, started side by side (the stack takes the longest).
import type { Browser } from 'playwright-core';
import type { E2EStack, StackOptions } from '../../support/stack.ts';
import { launchChromium } from './browser.ts';
import { startConsoleStack } from './console-stack.ts';

export interface ConsoleSuite {
  readonly stack: E2EStack;
  readonly browser: Browser;
}

/** Both started; when one fails, the other is stopped before the failure is thrown. */
export async function startConsoleSuite(options: StackOptions = {}): Promise<ConsoleSuite> {
  const [stack, browser] = await Promise.allSettled([startConsoleStack(options), launchChromium()]);
  if (stack.status === 'fulfilled' && browser.status === 'fulfilled')
    return { stack: stack.value, browser: browser.value };
  if (stack.status === 'fulfilled') await stack.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw stack.status === 'rejected' ? stack.reason : (browser as PromiseRejectedResult).reason;
}
