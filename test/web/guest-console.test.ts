/// <reference lib="dom" />
/**
 * The guest console pages in Chromium: the server's screen through noVNC and its serial line
 * through xterm.js, both on the API's own origin under its strict Content-Security-Policy, and
 * the server page's Console control that opens them in a new tab.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, screenshot, signedInCustomerTab, type ConsoleTab } from '../support/browser';
import { consoleOffer } from '../support/console-client';
import { runningServer } from '../support/lifecycle';
import { seededId, startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let tab: ConsoleTab;

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  tab = await signedInCustomerTab(browser, stack);
}, 180_000);

afterAll(async () => {
  await tab?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

/** The page address of a fresh console offer (on the test API's own origin, its PUBLIC_URL). */
async function consolePage(id: string, type: 'vnc' | 'serial'): Promise<string> {
  const offer = await consoleOffer(stack, id, type);
  expect(offer.status).toBe(201);
  const { pathname, search, hash } = new URL(offer.body.data.url);
  return pathname + search + hash;
}

const statusLine = (page: Page) => page.getByRole('status');
const terminalText = (page: Page) => page.locator('.xterm-rows').innerText();

/** How many distinct colours the noVNC canvas shows (1: nothing drawn yet). */
const canvasColours = (page: Page) =>
  page.locator('.console-screen canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return colours.size;
  });

describe('the guest console pages', () => {
  it('shows the debian-12 server\'s screen through noVNC, scaled into the tab, and ends it with a clear reason', async () => {
    const id = await runningServer(stack, { hostname: 'screen-1', imageId: seededId(stack.seed.images, 'debian-12') });
    const { page, errors } = tab;
    await page.goto(await consolePage(id, 'vnc'));
    await expect.poll(() => statusLine(page).textContent()).toBe('Connected');
    // The ticket left the address once read: a reload cannot try a spent one.
    expect(new URL(page.url()).hash).toBe('');
    await expect.poll(() => canvasColours(page)).toBeGreaterThan(1);
    await expect.poll(() => page.locator('.console-screen canvas').evaluate((canvas) => canvas.getBoundingClientRect().width)).toBeGreaterThan(640);
    await page.getByRole('button', { name: 'Ctrl-Alt-Del' }).click();
    await screenshot(page, 'console-vnc');

    await stack.client.POST('/v1/instances/{id}/stop', { params: { path: { id } } });
    await expect.poll(() => statusLine(page).textContent(), { timeout: 30_000 }).toBe('The server stopped. Start it to use its console again.');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('INSTANCE_NOT_RUNNING');
    expect(errors).toEqual([]);
  });

  it('shows the serial line in xterm.js: the login prompt, typed text echoed, Reconnect for a spent link', async () => {
    const id = await runningServer(stack, { hostname: 'serial-1', imageId: seededId(stack.seed.images, 'ubuntu-24.04') });
    const { page, errors } = tab;
    const address = await consolePage(id, 'serial');
    await page.goto(address);
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('serial-1 login:');
    await page.locator('.console-screen').click();
    await page.keyboard.type('root');
    await expect.poll(() => terminalText(page)).toContain('serial-1 login: root');
    await screenshot(page, 'console-serial');

    // The same link again: its ticket is spent, and Reconnect asks for a fresh one.
    await page.goto('about:blank');
    await page.goto(address);
    await expect.poll(() => statusLine(page).textContent()).toBe('This console link was already used or has expired. Reconnect to open a fresh one.');
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => statusLine(page).textContent()).toBe('Connected');
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('serial-1 login:');
    expect(errors).toEqual([]);
  });

  it('opens the console from the server page in a new tab, and says why a screen is not there', async () => {
    const id = await runningServer(stack, { hostname: 'control-1', imageId: seededId(stack.seed.images, 'ubuntu-24.04') });
    const { page, context } = tab;
    await page.goto(`/servers/${id}`);
    const control = page.getByRole('group', { name: 'Console' });
    await control.getByRole('button', { name: 'Screen' }).click();
    await expect.poll(() => control.getByRole('alert').textContent()).toContain('CONSOLE_TYPE_UNAVAILABLE');
    await expect.poll(() => context.pages().length).toBe(1);

    const opened = context.waitForEvent('page');
    await control.getByRole('button', { name: 'Serial' }).click();
    const consoleTab = await opened;
    await expect.poll(() => consoleTab.url(), { timeout: 15_000 }).toMatch(new RegExp(`/console/serial\\?instance=${id}$`));
    await expect.poll(() => terminalText(consoleTab), { timeout: 15_000 }).toContain('control-1 login:');
    await consoleTab.close();
  });

  it('a console opened from the server page closes when its person signs out, and says so', async () => {
    const id = await runningServer(stack, { hostname: 'sign-out-1', imageId: seededId(stack.seed.images, 'ubuntu-24.04') });
    const { page, context, errors } = tab;
    await page.goto(`/servers/${id}`);
    const opened = context.waitForEvent('page');
    await page.getByRole('group', { name: 'Console' }).getByRole('button', { name: 'Serial' }).click();
    const consoleTab = await opened;
    await expect.poll(() => terminalText(consoleTab), { timeout: 15_000 }).toContain('sign-out-1 login:');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => statusLine(consoleTab).textContent(), { timeout: 15_000 }).toBe('You were signed out, so the console closed. Sign in again to reconnect.');
    await consoleTab.close();
    expect(errors).toEqual([]);
  });
});
