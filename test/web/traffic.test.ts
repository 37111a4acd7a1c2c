/// <reference lib="dom" />
/**
 * Traffic in the web console: the server page's bar against the allowance and the day-by-day
 * graph; the operators' usage CSV of a month.
 */
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { launchChromium, openConsole, screenshot, signedInCustomerTab, signInThroughPage, type ConsoleTab } from '../support/browser';
import { guestOf, runningServer } from '../support/lifecycle';
import { newPassword, setPassword } from '../support/sessions';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
const tabs: ConsoleTab[] = [];

beforeAll(async () => {
  await ensureWebBuild();
  [stack, browser] = await Promise.all([startStack({ env: { TRAFFIC_SAMPLE_SECONDS: '86400' } }), launchChromium()]);
}, 180_000);

afterAll(async () => {
  for (const tab of tabs) await tab.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

const samplingPass = () =>
  stack.api.temporal.workflow.execute('SampleTraffic', { taskQueue: stack.api.config.TEMPORAL_TASK_QUEUE, workflowId: `traffic-web-${randomUUID()}`, args: [{ connectionId: stack.seed.connectionId }] });

describe('traffic in the console', () => {
  it('shows a server’s traffic against its allowance as a bar, and its days as a graph described in words', async () => {
    const plan = await stack.api.request('POST', '/v1/admin/plans', {
      token: stack.api.adminToken,
      body: { name: 'metered-web', vcpus: 1, memoryMiB: 1024, diskGiB: 10, trafficAllowanceGiB: 1, trafficOverage: 'throttle', throttleMbps: 10 },
    });
    const id = await runningServer(stack, { hostname: 'traffic-web', planId: plan.body.data.id });
    const { vmid } = (await guestOf(stack, id))!;
    await stack.sim.setGuestTraffic(vmid, { inBytesPerSecond: 1_000_000, outBytesPerSecond: 20_000_000 });
    await samplingPass();
    // Up 44 s at 20 MB/s: 880 MB of the gibibyte sent.
    await stack.sim.setGuestUptime(vmid, 44);
    await samplingPass();

    const tab = await signedInCustomerTab(browser, stack);
    tabs.push(tab);
    await tab.page.goto(`/servers/${id}`);
    const panel = tab.page.locator('#traffic');
    const bar = panel.getByRole('meter', { name: 'Allowance used' });
    await bar.waitFor();
    expect(Number(await bar.getAttribute('data-percent'))).toBeGreaterThanOrEqual(80);
    expect(Number(await bar.getAttribute('data-percent'))).toBeLessThan(100);
    expect(await panel.textContent()).toMatch(/outbound counted of 1(\.0)? GiB \(\d+(\.\d)?%\)/);
    const described = (await panel.locator('#graph-traffic-desc').textContent()) ?? '';
    expect(described).toMatch(/now .+, highest .+/);
    expect(await panel.locator('[data-graph="traffic-daily"] path.line').count()).toBe(2);
    await screenshot(tab.page, 'server-traffic');
    expect(tab.errors).toEqual([]);
  });

  it('offers operators a month’s usage records as CSV', async () => {
    const admin = (await stack.adminClient.POST('/v1/admin/users', { body: { email: 'billing-ops@example.com', role: 'admin' } })).data?.data.id as string;
    const password = newPassword();
    await setPassword(stack.api, admin, password);
    const tab = await openConsole(browser, stack.api.baseUrl);
    tabs.push(tab);
    await signInThroughPage(tab.page, 'billing-ops@example.com', password);
    await tab.page.locator('a[href="/admin/servers"]').click();
    const month = new Date().toISOString().slice(0, 7);
    await tab.page.getByLabel('Month (UTC)').fill(month);
    await tab.page.getByLabel('Month (UTC)').blur();
    const link = tab.page.getByRole('link', { name: 'Download usage CSV' });
    const href = (await link.getAttribute('href')) as string;
    expect(href).toContain('format=csv');
    // The link works with the operator's session, as the browser's download would fetch it.
    const answer = await tab.page.request.get(`${stack.api.baseUrl}${href}`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = (await answer.text()).trimEnd().split('\n');
    expect(header).toBe('hour,part,instanceId,tenantId,hostname,planId,planName,seconds,state,addresses,inBytes,outBytes,backupBytes,snapshotCount,open');
    expect(rows.some((row) => row.includes('traffic-web'))).toBe(true);
    await screenshot(tab.page, 'operator-usage');
    expect(tab.errors).toEqual([]);
  });
});
