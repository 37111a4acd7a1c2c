import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { newPassword, setPassword } from './sessions';
import type { Stack } from './stack';

/** Debian's chromium (`apt-get install chromium`); `.ci/run` installs it when it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Where screenshots go: the documentation's pictures (docs/images) only when UPDATE_SCREENSHOTS=1
 * (`npm run screenshots`); otherwise a directory outside the checkout, so a test run changes no file of it.
 */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '..', '..', 'docs', 'images') : path.join(os.tmpdir(), 'pvecp-screenshots');

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`browser tests need Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface ConsoleTab {
  context: BrowserContext;
  page: Page;
  /**
   * What the page reported as errors: uncaught exceptions and Content-Security-Policy refusals among
   * them. The API's answers are not: a 4xx the page shows, and a 503 (busy or a dependency out of
   * reach, with Retry-After) that a loaded machine can give any read.
   */
  errors: string[];
}

/** A fresh browser profile (its own cookies) on the console at `baseUrl`, desktop size unless `phone`. */
export async function openConsole(browser: Browser, baseUrl: string, options: { phone?: boolean } = {}): Promise<ConsoleTab> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1200, height: 800 },
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (?:4\d\d|503)/.test(message.text())) errors.push(`${message.text()} ${message.location().url}`);
  });
  return { context, page, errors };
}

/** A screenshot of the whole page as <name>.png (see SCREENSHOTS), for the documentation. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
}

export async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The stack's customer, given a fresh password, signed in on a fresh console tab and shown the Servers page. */
export async function signedInCustomerTab(browser: Browser, stack: Pick<Stack, 'api' | 'customer'>): Promise<ConsoleTab> {
  const password = newPassword();
  await setPassword(stack.api, stack.customer.userId, password);
  const tab = await openConsole(browser, stack.api.baseUrl);
  await signInThroughPage(tab.page, stack.customer.email, password);
  await tab.page.getByRole('heading', { name: 'Servers' }).waitFor();
  return tab;
}
