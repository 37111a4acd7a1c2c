/// <reference lib="dom" />
/**
 * SSH keys in the console: saved on the account page (a refused key said next to its field, each
 * saved key with its fingerprint), chosen in the create form, and handed to the new server.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, screenshot, signedInCustomerTab, type ConsoleTab } from '../support/browser';
import { sshPublicKeyLine } from '../support/ssh-keys';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let tab: ConsoleTab;
let page: Page;

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([startStack({ worker: false }), launchChromium()]);
  tab = await signedInCustomerTab(browser, stack);
  page = tab.page;
}, 180_000);

afterAll(async () => {
  await tab?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const keys = () => page.locator('#ssh-keys');

describe('SSH keys in the console', () => {
  it('saves keys on the account page with their fingerprints, says why a key is refused, and deletes one', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await keys().getByText('No SSH keys yet.').waitFor();
    await keys().getByLabel('Key name').fill('old laptop');
    await keys().getByLabel('Public key').fill(sshPublicKeyLine({ type: 'rsa', bits: 1024 }));
    await keys().getByRole('button', { name: 'Add SSH key' }).click();
    await expect.poll(() => keys().locator('.field-error').textContent()).toContain('1024 bits is too short');

    for (const [name, line] of [
      ['laptop', sshPublicKeyLine({ type: 'ed25519' }, 'me@laptop')],
      ['build server', sshPublicKeyLine({ type: 'ec', curve: 'P-384' }, 'ci')],
      ['spare', sshPublicKeyLine({ type: 'ed25519' }, 'spare')],
    ] as const) {
      await keys().getByLabel('Key name').fill(name);
      await keys().getByLabel('Public key').fill(line);
      await keys().getByRole('button', { name: 'Add SSH key' }).click();
      await keys().locator(`tr[data-ssh-key="${name}"]`).waitFor();
    }
    const saved = (await stack.api.request('GET', '/v1/ssh-keys', { token: stack.customer.token })).body.data as { name: string; fingerprint: string }[];
    const laptop = saved.find((k) => k.name === 'laptop')!;
    expect(await keys().locator('tr[data-ssh-key="laptop"]').textContent()).toContain(laptop.fingerprint);
    expect(await keys().locator('tr[data-ssh-key="build server"]').textContent()).toContain('ecdsa 384');
    await keys().getByRole('button', { name: 'Delete SSH key spare' }).click();
    await expect.poll(() => keys().locator('tr[data-ssh-key="spare"]').count()).toBe(0);
    await screenshot(page, 'account-ssh-keys');
    expect(tab.errors).toEqual([]);
  });

  it('offers the saved keys in the create form and hands the chosen one to the server', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('link', { name: 'Create server' }).click();
    await page.getByLabel('Host name').fill('with-saved-key');
    await page.getByRole('checkbox', { name: /laptop/ }).check();
    await screenshot(page, 'create-server-ssh-keys');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByRole('heading', { name: 'with-saved-key' }).waitFor();
    const laptop = await stack.api.db.sshKey.findFirstOrThrow({ where: { userId: stack.customer.userId, name: 'laptop' } });
    const server = await stack.api.db.instance.findFirstOrThrow({ where: { hostname: 'with-saved-key' } });
    expect(server.sshKeys).toEqual([laptop.publicKey]);
    expect(tab.errors).toEqual([]);
  });
});
