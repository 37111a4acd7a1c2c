/// <reference lib="dom" />
/**
 * The console's firewall: a server's rules edited, reordered (a group placed among them) and
 * applied, with a refused rule shown on its row; the groups page changes a group and shows it
 * reaching the server that uses it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, screenshot, signedInCustomerTab, type ConsoleTab } from '../support/browser';
import { runningServer } from '../support/lifecycle';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let tab: ConsoleTab;
let page: Page;
let serverId: string;
let groupId: string;

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  serverId = await runningServer(stack, { hostname: 'web-firewall' }, 60_000);
  const group = await stack.api.request('POST', '/v1/firewall-groups', { token: stack.customer.token, body: { name: 'monitoring', rules: [{ action: 'accept', protocol: 'tcp', port: '9100', sources: ['192.0.2.0/24'], comment: 'node exporter' }] } });
  groupId = group.body.data.id;
  tab = await signedInCustomerTab(browser, stack);
  page = tab.page;
}, 180_000);

afterAll(async () => {
  await tab?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const firewall = () => page.locator('#firewall');
const readFirewall = async () => (await stack.api.request('GET', `/v1/instances/${serverId}/firewall`, { token: stack.customer.token })).body.data;

describe('the firewall in the console', () => {
  it('edits, reorders and applies a server firewall, then shows it applied', async () => {
    await page.goto(`/servers/${serverId}`);
    await firewall().getByText('No rules.').waitFor();
    await firewall().getByLabel('Everything else inbound').selectOption('drop');
    await firewall().getByRole('button', { name: 'Add rule' }).click();
    await firewall().getByLabel('Rule 1 port').fill('443');
    await firewall().getByLabel('Rule 1 comment').fill('https');
    await firewall().getByRole('button', { name: 'Add rule' }).click();
    await firewall().getByLabel('Rule 2 port').fill('22');
    await firewall().getByLabel('Rule 2 sources').fill('198.51.100.0/24, 2001:db8::/32');
    await firewall().getByLabel('Rule 2 comment').fill('ssh from the office');
    await firewall().getByLabel('Group to add').selectOption(groupId);
    await firewall().getByRole('button', { name: 'Add group' }).click();
    await firewall().getByRole('button', { name: 'Move rule 3 up' }).click();
    await firewall().getByRole('button', { name: 'Apply firewall' }).click();
    await expect.poll(async () => { const f = await readFirewall(); return `${f.revision} ${f.application.state}`; }, { timeout: 30_000 }).toBe('1 applied');
    await expect.poll(() => firewall().locator('[data-application]').getAttribute('data-application'), { timeout: 30_000 }).toBe('applied');

    const applied = await readFirewall();
    expect(applied.inboundPolicy).toBe('drop');
    expect(applied.rules).toEqual([
      { action: 'accept', protocol: 'tcp', port: '443', sources: [], comment: 'https' },
      { group: groupId, name: 'monitoring' },
      { action: 'accept', protocol: 'tcp', port: '22', sources: ['198.51.100.0/24', '2001:db8::/32'], comment: 'ssh from the office' },
    ]);
    await firewall().scrollIntoViewIfNeeded();
    await screenshot(page, 'server-firewall');
  }, 120_000);

  it('shows a refused rule on its row, and changes nothing', async () => {
    await firewall().getByLabel('Rule 1 port').fill('70000');
    await firewall().getByRole('button', { name: 'Apply firewall' }).click();
    await expect.poll(() => firewall().locator('tr.row-problem').count(), { timeout: 10_000 }).toBe(1);
    expect(await firewall().locator('tr.row-problem').textContent()).toContain('ports are 1-65535');
    expect((await readFirewall()).revision).toBe('1');
  }, 60_000);

  it('changes a group on its page and shows it reaching the server that uses it', async () => {
    await page.getByRole('link', { name: 'Firewall groups' }).click();
    await page.getByRole('heading', { name: 'Firewall groups' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Rule 1 port').fill('9100-9110');
    await page.getByRole('button', { name: 'Save and apply' }).click();
    const applies = () => stack.api.db.task.count({ where: { instanceId: serverId, type: 'FIREWALL_APPLY', status: 'succeeded' } });
    await expect.poll(applies, { timeout: 60_000 }).toBe(2);
    const server = page.locator('td[data-application]');
    await expect.poll(() => server.getAttribute('data-application'), { timeout: 60_000 }).toBe('applied');
    expect(await page.getByRole('link', { name: 'web-firewall' }).count()).toBe(1);
    await screenshot(page, 'firewall-groups');
    const held = await stack.api.request('GET', `/v1/firewall-groups/${groupId}`, { token: stack.customer.token });
    expect(held.body.data.rules[0].port).toBe('9100-9110');
    expect(tab.errors).toEqual([]);
  }, 90_000);
});
