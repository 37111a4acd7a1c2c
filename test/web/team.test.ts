/// <reference lib="dom" />
/**
 * The console's team pages: an owner invites someone (the link shown once), the link's page sets
 * their password and signs them in with the role; the owner shares a server with them, and the
 * member is told why they cannot share it on; the audit log shows who did it, and how.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, openConsole, screenshot, signedInCustomerTab, signInThroughPage, type ConsoleTab } from '../support/browser';
import { runningServer } from '../support/lifecycle';
import { newPassword, setPassword } from '../support/sessions';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let owner: ConsoleTab;
let page: Page;
let serverId: string;
const invitee = `dana-${Math.random().toString(36).slice(2, 8)}@example.com`;
let inviteUrl: string;

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  serverId = await runningServer(stack, { hostname: 'web-shared' }, 60_000);
  owner = await signedInCustomerTab(browser, stack);
  page = owner.page;
}, 180_000);

afterAll(async () => {
  await owner?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

describe('the team in the console', () => {
  it('invites someone with a role: the link is shown once, and a pending invitation can be revoked', async () => {
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Invitations' }).waitFor();
    await page.getByLabel('Email').fill('taken@example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('#invite-email-error').waitFor();

    await page.getByLabel('Email').fill('someone-else@example.com');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('button', { name: 'Revoke the invitation of someone-else@example.com' }).click();
    await expect.poll(() => page.locator('td[data-status="revoked"]').count()).toBe(1);

    await page.getByLabel('Email').fill(invitee);
    await page.getByLabel('Role').selectOption('member');
    await page.getByLabel('Link works for (hours)').fill('48');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`Send this link to ${invitee}`).waitFor();
    inviteUrl = (await page.getByLabel('Invitation link').textContent()) ?? '';
    expect(inviteUrl).toMatch(/\/invite#/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await expect.poll(() => page.locator('td[data-status="pending"]').count()).toBe(1);
    await screenshot(page, 'team');
    // Shown once: the list never holds the link.
    const listed = await stack.api.request('GET', '/v1/invitations', { token: stack.customer.token });
    expect(listed.text).not.toContain(inviteUrl.split('#')[1]);
  }, 60_000);

  it('the link sets a password and signs the new member in; they see the team but cannot invite', async () => {
    const tab = await openConsole(browser, stack.api.baseUrl);
    try {
      await tab.page.goto(new URL(inviteUrl).pathname + new URL(inviteUrl).hash);
      await tab.page.getByRole('heading', { name: 'Choose your password' }).waitFor();
      const password = newPassword();
      await tab.page.getByLabel('New password').fill(password);
      await tab.page.getByLabel('The same password again').fill(password);
      await screenshot(tab.page, 'invite-accept');
      await tab.page.getByRole('button', { name: 'Set password' }).click();
      await tab.page.getByRole('heading', { name: 'Servers' }).waitFor();
      await tab.page.getByRole('link', { name: 'Team' }).click();
      await tab.page.getByText('Only a tenant owner invites people into the tenant.').waitFor();
      expect(await tab.page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
    // The link worked once.
    const again = await stack.api.request('POST', '/v1/invitations/accept', { body: { token: inviteUrl.split('#')[1], password: newPassword() } });
    expect(again.body.error.code).toBe('INVITE_INVALID');
  }, 60_000);

  it('shares a server with chosen permissions, lists and revokes the grant; the member is told why they cannot share it on', async () => {
    const member = await stack.api.db.user.findUniqueOrThrow({ where: { email: invitee } });
    await page.goto(`/servers/${serverId}`);
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share web-shared' });
    await dialog.getByText('Not shared with anyone.').waitFor();
    await dialog.getByLabel('User').selectOption(member.id);
    await dialog.getByLabel('Open its console').check();
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByRole('cell', { name: 'read, power, console' }).waitFor();
    await screenshot(page, 'server-share');
    const grants = await stack.api.request('GET', `/v1/instances/${serverId}/grants`, { token: stack.customer.token });
    expect(grants.body.data).toEqual([expect.objectContaining({ userId: member.id, permissions: ['read', 'power', 'console'] })]);

    const memberPassword = newPassword();
    await setPassword(stack.api, member.id, memberPassword);
    const tab = await openConsole(browser, stack.api.baseUrl);
    try {
      await signInThroughPage(tab.page, invitee, memberPassword);
      await tab.page.getByRole('heading', { name: 'Servers' }).waitFor();
      await tab.page.goto(`/servers/${serverId}`);
      await tab.page.getByRole('button', { name: 'Share…' }).click();
      await tab.page.getByRole('alert').filter({ hasText: "Only the server's creator, an owner of its project or a tenant owner shares it." }).waitFor();
      expect(await tab.page.getByRole('dialog').getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    } finally {
      await tab.context.close();
    }

    await dialog.getByRole('button', { name: `Stop sharing with ${invitee}` }).click();
    await dialog.getByText('Not shared with anyone.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 90_000);

  it("changes another user's role and disables them on the Team page; an owner's own row has no such controls", async () => {
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel(`Role of ${invitee}`).selectOption('viewer');
    await expect.poll(async () => (await stack.api.db.user.findUniqueOrThrow({ where: { email: invitee } })).tenantRole).toBe('viewer');
    const row = page.getByRole('table', { name: 'Users' }).locator('tr', { hasText: invitee });
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await row.textContent()).toContain('disabled');
    expect(await page.getByLabel(`Role of ${stack.customer.email}`).count()).toBe(0);
    await screenshot(page, 'team-users');
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByRole('button', { name: 'Disable' }).waitFor();
  }, 60_000);

  it('the audit log shows who shared the server, from a console session, filtered by action', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Action').fill('grant.given');
    await page.getByRole('button', { name: 'Show' }).click();
    const row = page.locator('tr', { hasText: 'grant.given' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('console session');
    expect(await row.textContent()).toContain(stack.customer.email);
    expect(await row.textContent()).toContain(`userId: ${invitee}`);
    await page.getByLabel('Action').fill('');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(5);
    await screenshot(page, 'audit-log');
    expect(owner.errors).toEqual([]);
  }, 60_000);
});
