/// <reference lib="dom" />
/**
 * Projects in the web console: a tenant owner makes a project on the Projects page, restricts its
 * plans, gives it a quota and a member; the header's project switcher narrows the servers list
 * (across all projects the list names each server's project) and is the create form's project,
 * where the project's quota left is shown and the plans it does not allow are offered disabled;
 * a server's page names its project, linking to it on the Projects page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, screenshot, signedInCustomerTab, type ConsoleTab } from '../support/browser';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let tab: ConsoleTab;
let page: Page;
let memberEmail: string;
let inStagingId: string;

beforeAll(async () => {
  await ensureWebBuild();
  // No worker: the servers listed stay scheduled, which is all the list shows here.
  [stack, browser] = await Promise.all([startStack({ worker: false }), launchChromium()]);
  memberEmail = `member-${Date.now()}@example.com`;
  const member = await stack.api.request('POST', '/v1/users', { token: stack.customer.token, body: { email: memberEmail, role: 'member' } });
  expect(member.status, member.text).toBe(201);
  tab = await signedInCustomerTab(browser, stack);
  page = tab.page;
}, 180_000);

afterAll(async () => {
  await tab?.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const projectNamed = async (name: string) => (await stack.api.db.project.findFirstOrThrow({ where: { tenantId: stack.customer.tenantId, name }, include: { members: true } }));

describe('projects in the console', () => {
  it('makes a project with a plan restriction, a quota and a member on the Projects page', async () => {
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByLabel('New project').fill('staging');
    await page.getByRole('button', { name: 'Create project' }).click();
    const editor = page.locator('[data-project="staging"]');
    await editor.getByLabel('small').check();
    await editor.getByLabel("Own quota (inside the tenant's)").check();
    await editor.getByLabel('Servers').fill('3');
    await editor.getByRole('button', { name: 'Save project' }).click();
    await expect.poll(async () => (await projectNamed('staging')).quotaInstances, { timeout: 10_000 }).toBe(3);
    expect((await projectNamed('staging')).allowedPlanIds).toEqual([stack.seed.plans.small]);

    await editor.getByLabel('Add member').selectOption({ label: memberEmail });
    await editor.getByLabel('Role of the new member').selectOption('viewer');
    await editor.getByRole('button', { name: 'Add member' }).click();
    await editor.locator(`[data-member="${memberEmail}"]`).waitFor();
    expect((await projectNamed('staging')).members.map((m) => m.role)).toEqual(['viewer']);
    await expect.poll(() => editor.textContent()).toContain('0 of 3 servers');
    expect(tab.errors).toEqual([]);
    await screenshot(page, 'projects');
  }, 60_000);

  it("the header's switcher narrows the servers list to the project, and the create form starts in it", async () => {
    const staging = (await projectNamed('staging')).id;
    const inStaging = await stack.create({ hostname: 'in-staging', projectId: staging });
    inStagingId = inStaging.body.data.id;
    await stack.create({ hostname: 'in-default' });

    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'staging' });
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('heading', { name: 'Servers in staging' }).waitFor();
    await expect.poll(() => page.locator('tr[data-server]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-server')))).toEqual(['in-staging']);
    expect(inStaging.body.data.projectId).toBe(staging);
    await screenshot(page, 'servers-in-project');

    await page.getByRole('link', { name: 'Create server' }).click();
    await page.getByRole('heading', { name: 'Create a server' }).waitFor();
    const chosen = await page.locator('#projectId').evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent);
    expect(chosen).toBe('staging');

    await page.getByLabel('Project', { exact: true }).first().selectOption({ label: 'All projects' });
    await page.getByRole('link', { name: 'Servers' }).click();
    await expect.poll(() => page.locator('tr[data-server]').count()).toBe(2);
    // Across all projects, each row names its server's project.
    const projectCells = () => page.locator('tr[data-server]').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-server'), r.querySelector('td[data-label="Project"]')?.textContent]));
    await expect.poll(projectCells).toEqual(expect.arrayContaining([['in-staging', 'staging'], ['in-default', 'Default']]));
    expect(tab.errors).toEqual([]);
    await screenshot(page, 'servers-all-projects');
  }, 60_000);

  it("the create form shows what is left of the chosen project's quota and offers the plans it does not allow disabled, with why", async () => {
    await page.getByRole('link', { name: 'Create server' }).click();
    await page.getByRole('heading', { name: 'Create a server' }).waitFor();
    await page.locator('#projectId').selectOption({ label: 'staging' });
    // The server in staging holds one of its three.
    await expect.poll(() => page.locator('#project-quota-left').textContent()).toMatch(/^Left in staging: 2 servers, /);
    await expect(page.locator('#quota-left').textContent()).resolves.toMatch(/^Quota left: /);
    const planOptions = () => page.locator('#planId option').evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).disabled, o.textContent?.endsWith('(not allowed in staging)')]));
    const { small, medium, large } = stack.seed.plans;
    expect(await planOptions()).toEqual([
      [small, false, false],
      [medium, true, true],
      [large, true, true],
    ]);
    expect(await page.locator('#planId').inputValue()).toBe(small);
    expect(tab.errors).toEqual([]);
    await screenshot(page, 'server-create-in-project');

    // The default project restricts nothing and has no quota of its own.
    await page.locator('#projectId').selectOption({ label: 'Default' });
    await expect.poll(planOptions).toEqual([
      [small, false, false],
      [medium, false, false],
      [large, false, false],
    ]);
    expect(await page.locator('#project-quota-left').count()).toBe(0);
  }, 60_000);

  it("a server's page names its project, linking to it on the Projects page", async () => {
    await page.goto(`${stack.api.baseUrl}/servers/${inStagingId}`);
    await page.getByRole('heading', { name: 'in-staging' }).waitFor();
    const link = page.locator('dl.facts').getByRole('link', { name: 'staging' });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The project linked to is shown open.
    await page.locator('[data-project="staging"]').getByRole('button', { name: 'Save project' }).waitFor();
    expect(tab.errors).toEqual([]);
  }, 60_000);
});
