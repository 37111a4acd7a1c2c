/// <reference lib="dom" />
/**
 * The server page's Rescue and ISO section in Chromium: an ISO mounted and put first, a reboot,
 * and the screen console opened from the section shows "booted from <iso>"; rescue mode entered
 * from it, its password revealed once, and the console showing the rescue system.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { newId } from '../../src/security/ids';
import { isoImage } from '../../src/simulator';
import { drawScreen, SCREEN_HEIGHT, SCREEN_WIDTH } from '../../src/simulator/console-screen';
import { demoCluster } from '../../src/simulator/spec';
import { launchChromium, screenshot, signedInCustomerTab, type ConsoleTab } from '../support/browser';
import { runningServer } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';

const snippets = mkdtempSync(path.join(tmpdir(), 'pvecp-web-rescue-'));
let stack: Stack;
let browser: Browser;
let tab: ConsoleTab;

/** A ready ISO of the library on the demo location's shared storage, its file in place. */
async function libraryIso(name: string, rescue = false): Promise<string> {
  const id = newId('iso');
  await stack.api.db.iso.create({
    data: {
      id,
      name,
      url: `https://images.example/${name}.iso`,
      checksum: 'a'.repeat(64),
      checksumAlgorithm: 'sha256',
      rescue,
      fileName: `${id}.iso`,
      copies: { create: { id: newId('isoc'), locationId: stack.seed.locationId, storage: 'shared-nfs', node: null, state: 'ready' } },
    },
  });
  const res = await fetch(`${stack.sim.url}/_sim/storages/shared-nfs/volumes`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ volume: `iso/${id}.iso`, contentBase64: isoImage(name.slice(0, 8).toUpperCase()).toString('base64') }),
  });
  expect(res.ok).toBe(true);
  return id;
}

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([
    startStack({ simulator: { cluster: { storages: [...demoCluster().storages, { storage: 'cephfs-snippets', type: 'cephfs', shared: true, content: 'snippets', snippetsDir: snippets }] } } }),
    launchChromium(),
  ]);
  await stack.api.db.location.update({ where: { id: stack.seed.locationId }, data: { isoStorage: 'shared-nfs' } });
  await stack.api.db.proxmoxConnection.update({ where: { id: stack.seed.connectionId }, data: { snippetsStorage: 'cephfs-snippets', snippetsDirectory: snippets } });
  tab = await signedInCustomerTab(browser, stack);
}, 180_000);

afterAll(async () => {
  await tab?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
  rmSync(snippets, { recursive: true, force: true });
});

/** How many of the noVNC canvas's pixels differ from the simulator's screen with these lines (0: it shows exactly them). */
function pixelsDifferingFrom(page: Page, lines: string[]): Promise<number> {
  const expected = Buffer.from(drawScreen(lines)).toString('base64');
  return page.locator('.console-screen canvas').evaluate(
    (canvas: HTMLCanvasElement, { rgb64, width, height }) => {
      if (canvas.width !== width || canvas.height !== height) return -1;
      const rgb = Uint8Array.from(atob(rgb64), (c) => c.charCodeAt(0));
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, width, height);
      let differing = 0;
      for (let i = 0; i < width * height; i++) if (data[i * 4] !== rgb[i * 3] || data[i * 4 + 1] !== rgb[i * 3 + 1] || data[i * 4 + 2] !== rgb[i * 3 + 2]) differing++;
      return differing;
    },
    { rgb64: expected, width: SCREEN_WIDTH, height: SCREEN_HEIGHT },
  );
}

const section = (page: Page) => page.getByRole('region', { name: 'Rescue and ISO' }).or(page.locator('.panel', { has: page.getByRole('heading', { name: 'Rescue and ISO' }) }));

/** Waits until the server's task of `type` has succeeded. */
async function taskDone(id: string, type: string): Promise<void> {
  await expect
    .poll(async () => (await stack.api.db.task.findFirst({ where: { instanceId: id, type }, orderBy: { createdAt: 'desc' } }))?.status ?? null, { timeout: 60_000, interval: 100 })
    .toBe('succeeded');
}

async function openScreen(page: Page): Promise<Page> {
  const opened = tab.context.waitForEvent('page');
  await section(page).getByRole('group', { name: 'Rescue system screen' }).getByRole('button', { name: 'Screen' }).click();
  const screen = await opened;
  await expect.poll(() => screen.url(), { timeout: 15_000 }).toMatch(/\/console\/vnc\?instance=/);
  return screen;
}

describe('the Rescue and ISO section', () => {
  it('mount an ISO, boot from the CD-ROM first, reboot: the console one click away shows "booted from" the ISO', { timeout: 180_000 }, async () => {
    const isoId = await libraryIso('alpine-3.21');
    const id = await runningServer(stack, { hostname: 'web-iso-1' }, 90_000);
    const { page } = tab;
    await page.goto(`/servers/${id}`);
    const panel = section(page);
    await panel.getByLabel('ISO').selectOption(isoId);
    await panel.getByRole('button', { name: 'Mount' }).click();
    await taskDone(id, 'ISO_MOUNT');
    await panel.getByRole('button', { name: 'Boot from CD-ROM first' }).click();
    await taskDone(id, 'BOOT_ORDER');
    await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Reboot' }).click();
    await taskDone(id, 'INSTANCE_REBOOT');
    await page.reload();
    await expect.poll(() => section(page).locator('dd').allTextContents()).toEqual(['alpine-3.21', 'CD-ROM first', 'off']);
    await screenshot(page, 'server-rescue-iso');

    const screen = await openScreen(page);
    await expect.poll(() => pixelsDifferingFrom(screen, ['web-iso-1', '', `booted from ${isoId}.iso`, '', 'boot: _']), { timeout: 15_000 }).toBe(0);
    await screenshot(screen, 'console-booted-from-iso');
    await screen.close();
  });

  it('boot into rescue: the password is shown once and the console shows the rescue system; leave rescue', { timeout: 180_000 }, async () => {
    const rescueIso = await libraryIso('rescue-2026', true);
    const id = await runningServer(stack, { hostname: 'web-rescue-1' }, 90_000);
    const { page } = tab;
    await page.goto(`/servers/${id}`);
    await section(page).getByRole('button', { name: 'Boot into rescue' }).click();
    await taskDone(id, 'RESCUE_ENTER');
    await page.reload();
    await expect.poll(() => page.locator('.heading-row').first().textContent()).toContain('In rescue');
    await section(page).getByRole('button', { name: 'Reveal rescue password' }).click();
    await expect.poll(() => section(page).getByLabel('Rescue password').textContent()).toMatch(/^\S{16,}$/);
    expect(await section(page).textContent()).toContain('Shown once');
    await screenshot(page, 'server-rescue');
    expect((await stack.api.request('POST', `/v1/instances/${id}/rescue/reveal`, { token: stack.customer.token })).body.error.code).toBe('CREDENTIAL_ALREADY_REVEALED');

    const screen = await openScreen(page);
    await expect.poll(() => pixelsDifferingFrom(screen, ['web-rescue-1', '', `booted from ${rescueIso}.iso`, '', 'boot: _']), { timeout: 15_000 }).toBe(0);
    await screen.close();

    await section(page).getByRole('button', { name: 'Leave rescue' }).click();
    await taskDone(id, 'RESCUE_LEAVE');
    await page.reload();
    await expect.poll(() => section(page).locator('dd').allTextContents()).toEqual(['empty', 'disk first', 'off']);
    expect(tab.errors).toEqual([]);
  });
});
