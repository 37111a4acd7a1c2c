/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web';
import { CONSOLE_CSP } from '../../src/api/console';
import { checksumsFile, DEFAULT_IMAGE, startImageServer } from '../../src/simulator';
import { launchChromium, openConsole, screenshot, signInThroughPage, type ConsoleTab } from '../support/browser';
import { serverUpFor } from '../support/lifecycle';
import { newPassword, setPassword } from '../support/sessions';
import { imageRefreshScheduleId } from '../../src/temporal/workflow-ids';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let browser: Browser;
let customerPassword: string;
const tabs: ConsoleTab[] = [];

beforeAll(async () => {
  await ensureWebBuild();
  // Every read of the usage graphs reaches the simulator: the cache has its own test (test/e2e/usage.test.ts).
  [stack, browser] = await Promise.all([startStack({ env: { METRICS_CACHE_SECONDS: '0' } }), launchChromium()]);
  customerPassword = newPassword();
  await setPassword(stack.api, stack.customer.userId, customerPassword);
}, 180_000);

afterAll(async () => {
  for (const tab of tabs) await tab.context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function customerTab(options: { phone?: boolean } = {}): Promise<Page> {
  const tab = await openConsole(browser, stack.api.baseUrl, options);
  tabs.push(tab);
  await signInThroughPage(tab.page, stack.customer.email, customerPassword);
  await tab.page.getByRole('heading', { name: 'Servers' }).waitFor();
  return tab.page;
}

const statusOf = (page: Page) => page.locator('.heading-row .badge');
const runningAgain = (page: Page) => expect.poll(() => statusOf(page).getAttribute('data-status'), { timeout: 30_000 }).toBe('running');
const stepLines = (page: Page) => page.locator('.steps li').allTextContents();

describe('the console as a customer', () => {
  let page: Page;
  let pageErrors: string[];
  let serverId: string;

  it('serves the page with a strict Content-Security-Policy and hashed assets cached for a year', async () => {
    const index = await fetch(`${stack.api.baseUrl}/servers`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    // No inline script: every script comes from a file of this origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${stack.api.baseUrl}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The API keeps its own answers: an unknown API path is still the JSON 404.
    const unknown = await fetch(`${stack.api.baseUrl}/v1/nothing-here`, { headers: { authorization: `Bearer ${stack.customer.token}` } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('NOT_FOUND');
  });

  it('signs in with email and password', async () => {
    const tab = await openConsole(browser, stack.api.baseUrl);
    tabs.push(tab);
    page = tab.page;
    pageErrors = tab.errors;
    await page.goto('/');
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Email').fill(stack.customer.email);
    await screenshot(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or the password is not right.');
    await page.getByLabel('Password').fill(customerPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    expect(page.url()).toBe(`${stack.api.baseUrl}/servers`);
    // The session cookie is out of the page's reach.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(tab.errors).toEqual([]);
  });

  it('creates a server and shows its step thread live until it runs', async () => {
    await page.getByRole('link', { name: 'Create server' }).click();
    await page.getByLabel('Host name').fill('web-console-1');
    await expect.poll(() => page.locator('#quota-left').textContent()).toContain('Quota left: 500 servers');
    await screenshot(page, 'create-server');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByRole('heading', { name: 'web-console-1' }).waitFor();
    serverId = page.url().split('/').pop() as string;
    await expect.poll(() => page.locator('.live').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => statusOf(page).getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    const steps = await page.locator('.steps li').allTextContents();
    expect(steps.some((line) => line.includes('finalize'))).toBe(true);
    await expect.poll(() => page.locator('.steps li').count()).toBeGreaterThan(5);
    // Nothing the customer API hides shows up: no node, VMID, UPID or template.
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/UPID:|pve[123]\b|VMID|template/i);
  });

  it('reveals the password once, with a copy button and a warning; a second attempt shows the refusal', async () => {
    await page.getByRole('button', { name: 'Reveal password' }).click();
    const secret = page.locator('.secret');
    await secret.waitFor();
    expect(await secret.textContent()).toContain('Shown once');
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    const password = (await secret.locator('code').textContent()) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);

    await page.reload();
    await page.getByRole('button', { name: 'Reveal password' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('This credential was already revealed.');
    expect(await page.locator('main').textContent()).not.toContain(password);
  });

  it('stops and starts the server, and shows the API’s conflict answer', async () => {
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('cannot be asked to start');
    await page.getByRole('button', { name: 'Stop (force)' }).click();
    await expect.poll(() => statusOf(page).getAttribute('data-status'), { timeout: 30_000 }).toBe('stopped');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => statusOf(page).getAttribute('data-status'), { timeout: 30_000 }).toBe('running');
  });

  it('draws CPU, memory, network and disk graphs over the hour, day and week, described in words', async () => {
    await serverUpFor(stack, serverId, 3 * 86_400);
    await page.reload();
    await page.locator('#usage .graphs[data-timeframe="hour"]').waitFor();
    const graphs = page.locator('#usage .graphs[data-timeframe="hour"] figure');
    expect(await graphs.count()).toBe(4);
    expect(await page.locator('#usage figcaption').allTextContents()).toEqual(['CPU', 'Memory', 'Network', 'Disk I/O']);
    for (const graph of await graphs.all()) {
      const svg = graph.locator('svg[role="img"]');
      expect(await svg.getAttribute('aria-labelledby')).toBeTruthy();
      const described = (await page.locator(`[id="${await svg.getAttribute('aria-describedby')}"]`).textContent()) ?? '';
      expect(described).toMatch(/now .+, highest .+/);
      // Proxmox VE 9 keeps the hour in 60 points a minute apart.
      for (const line of await graph.locator('path.line').all()) expect((await line.getAttribute('d'))?.split('L')).toHaveLength(60);
    }
    expect(await page.locator('[data-graph="network"] .legend').textContent()).toBe('InOut');
    await page.getByRole('button', { name: 'Week' }).click();
    await page.locator('#usage .graphs[data-timeframe="week"]').waitFor();
    expect(await page.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');
    // Up for three days of the week: the line starts where the server did.
    const week = (await page.locator('[data-graph="cpu"] path.line').getAttribute('d')) ?? '';
    expect(week.startsWith('M0 ')).toBe(false);
    await page.getByRole('button', { name: 'Hour' }).click();
    await page.locator('#usage .graphs[data-timeframe="hour"]').waitFor();
    // Inline SVG needs neither inline script nor style: nothing was refused by the Content-Security-Policy.
    expect(pageErrors).toEqual([]);
  });

  it('takes snapshots (a bad name refused at its field, the plan’s limit next to the button), rolls back on the step thread and deletes one', async () => {
    await page.getByLabel('Name', { exact: true }).fill('1st try');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await expect.poll(() => page.locator('#snapshot-name-error').textContent(), { timeout: 10_000 }).toContain('must start with a letter');
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    for (const name of ['before-upgrade', 'second', 'third']) {
      await page.getByLabel('Name', { exact: true }).fill(name);
      if (name === 'before-upgrade') await page.getByLabel('Description (optional)').fill('known good');
      await page.getByRole('button', { name: 'Take snapshot' }).click();
      await expect.poll(() => page.locator(`tr[data-snapshot="${name}"]`).textContent(), { timeout: 30_000 }).toContain('available');
      await runningAgain(page);
    }
    expect(await page.locator('tr[data-snapshot="before-upgrade"]').textContent()).toContain('known good');
    await page.getByLabel('Name', { exact: true }).fill('fourth');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await expect.poll(() => page.locator('#snapshots form .alert').textContent(), { timeout: 10_000 }).toContain('SNAPSHOT_LIMIT_REACHED');

    await page.getByRole('button', { name: 'Roll back to before-upgrade' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Roll back' }).click();
    await expect.poll(() => stepLines(page), { timeout: 30_000 }).toContainEqual(expect.stringContaining('rollback'));
    await runningAgain(page);
    await expect.poll(() => page.locator('.live').count(), { timeout: 30_000 }).toBe(0);
    expect((await stepLines(page)).some((line) => line.includes('rollback'))).toBe(true);

    await page.getByRole('button', { name: 'Delete snapshot third' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete snapshot' }).click();
    await expect.poll(() => page.locator('tr[data-snapshot="third"]').count(), { timeout: 30_000 }).toBe(0);
    await runningAgain(page);
  }, 120_000);

  it('backs up (a second backup refused while one runs), restores in place after confirming, and deletes the backup', async () => {
    await stack.sim.options({ taskMsByType: { vzdump: 3_000 } });
    await page.getByLabel('Notes (optional)').fill('before the migration');
    await page.getByRole('button', { name: 'Back up now' }).click();
    const row = page.locator('#backups tr[data-backup]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect.poll(() => page.locator('#backups > .alert').textContent(), { timeout: 10_000 }).toContain('BACKUP_IN_PROGRESS');
    await stack.sim.options({ taskMsByType: {} });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('available');
    expect(await row.locator('[data-label="Size"]').textContent()).toMatch(/\d+(\.\d+)? (KiB|MiB|GiB)/);
    expect(await row.locator('[data-label="Protected"]').textContent()).toBe('No');
    expect(await row.locator('[data-label="Notes"]').textContent()).toBe('before the migration');
    await runningAgain(page);
    // The rollback started the server again: up for days, for the picture's graphs.
    await serverUpFor(stack, serverId, 3 * 86_400);
    await page.getByRole('button', { name: 'Day' }).click();
    await page.locator('#usage .graphs[data-timeframe="day"]').waitFor();
    await screenshot(page, 'server');
    await page.getByRole('button', { name: 'Hour' }).click();

    await row.getByRole('button', { name: /^Restore the backup/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await statusOf(page).getAttribute('data-status')).toBe('running');
    await row.getByRole('button', { name: /^Restore the backup/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => stepLines(page), { timeout: 30_000 }).toContainEqual(expect.stringContaining('restore > done'));
    await runningAgain(page);

    await row.getByRole('button', { name: /^Delete the backup/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete backup' }).click();
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
  }, 120_000);

  it('sets a weekly backup schedule (a bad time zone and a keep count over the plan refused at their fields), then removes it', async () => {
    const form = page.locator('#backup-schedule');
    await expect.poll(() => form.textContent()).toContain('No schedule');
    await form.getByLabel('Frequency').selectOption('weekly');
    await form.getByLabel('Day').selectOption('friday');
    await form.getByLabel('Time (HH:MM)').fill('02:30');
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByLabel('Keep the last').fill('1000');
    await form.getByRole('button', { name: 'Set schedule' }).click();
    await expect.poll(() => form.locator('#schedule-timezone-error').textContent()).toContain('IANA time zone');

    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByRole('button', { name: 'Set schedule' }).click();
    await expect.poll(() => form.locator('#schedule-keep-error').textContent()).toMatch(/.+/);

    await form.getByLabel('Keep the last').fill('2');
    await form.getByRole('button', { name: 'Set schedule' }).click();
    await expect.poll(() => form.textContent()).toContain('Weekly on friday at 02:30 (Europe/Berlin), keeping the last 2');
    const saved = await stack.api.request('GET', `/v1/instances/${serverId}/backup-schedule`, { token: stack.customer.token });
    expect(saved.body.data).toMatchObject({ frequency: 'weekly', weekday: 'friday', time: '02:30', timezone: 'Europe/Berlin', keepLast: 2 });

    await form.getByRole('button', { name: 'Remove schedule' }).click();
    await expect.poll(() => form.textContent()).toContain('No schedule');
    expect((await stack.api.request('GET', `/v1/instances/${serverId}/backup-schedule`, { token: stack.customer.token })).status).toBe(404);
  }, 60_000);

  it('lists the server with its live status, filters and search', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const row = page.locator('tr[data-server="web-console-1"]');
    await row.waitFor();
    expect(await row.locator('.badge').getAttribute('data-status')).toBe('running');
    await screenshot(page, 'servers');
    // Stopped through the API elsewhere: the list follows the event feed without a reload.
    await stack.client.POST('/v1/instances/{id}/stop', { params: { path: { id: serverId } } });
    await expect.poll(() => row.locator('.badge').getAttribute('data-status'), { timeout: 30_000 }).toBe('stopped');
    await page.getByLabel('Status').selectOption('running');
    await expect.poll(() => row.count()).toBe(0);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search').fill('no-such-host');
    await expect.poll(() => page.getByText('No server matches these filters.').count()).toBe(1);
    await page.getByLabel('Search').fill('console-1');
    await expect.poll(() => row.count()).toBe(1);
  });

  it('keeps a customer out of the operator pages and out of another tenant’s server', async () => {
    const other = await stack.api.createCustomer();
    const theirs = await stack.api.client(other.token).POST('/v1/instances', { body: stack.createBody({ hostname: 'not-yours' }) });
    const theirId = theirs.data?.data.id as string;
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'For operators only' }).waitFor();
    await page.goto(`/servers/${theirId}`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('not-yours');
  });

  it('refuses a state-changing request without the CSRF token, even from the signed-in page', async () => {
    const answer = await page.evaluate(async () => {
      const res = await fetch('/v1/account/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"forged"}' });
      return { status: res.status, body: (await res.json()) as { error: { code: string } } };
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('CSRF_TOKEN_INVALID');
    expect(await stack.api.db.apiToken.count({ where: { userId: stack.customer.userId, name: 'forged' } })).toBe(0);
  });

  it('manages API tokens: created and shown once, then revoked', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Name', { exact: true }).fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('.secret code').textContent()) ?? '';
    expect(token).toMatch(/^pvecp_/);
    expect((await stack.api.request('GET', '/v1/instances', { token })).status).toBe(200);
    await screenshot(page, 'account');
    await page.getByRole('button', { name: 'Revoke token deploy script' }).click();
    await expect.poll(() => page.locator('tr[data-token="deploy script"]').textContent()).toContain('Revoked');
    expect((await stack.api.request('GET', '/v1/instances', { token })).status).toBe(401);
  });

  it('shows a quota refusal next to the field it concerns', async () => {
    const small = await stack.api.createCustomer({ vcpus: 0 });
    const password = newPassword();
    await setPassword(stack.api, small.userId, password);
    const tab = await openConsole(browser, stack.api.baseUrl);
    tabs.push(tab);
    await signInThroughPage(tab.page, small.email, password);
    await tab.page.getByRole('link', { name: 'Create server' }).click();
    await tab.page.getByLabel('Host name').fill('too-big');
    await tab.page.getByRole('button', { name: 'Create server' }).click();
    const error = tab.page.locator('#planId-error');
    await expect.poll(() => error.textContent()).toContain('This would exceed your vcpus quota.');
    expect(await tab.page.getByLabel('Plan').getAttribute('aria-invalid')).toBe('true');
    await screenshot(tab.page, 'quota-refusal');
  });

  it('signs out at the next click once the session is revoked elsewhere', async () => {
    const session = await stack.api.db.session.findFirstOrThrow({ where: { userId: stack.customer.userId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
    // Revoked from another browser: the API's own route, with the other session's cookie.
    const other = await openConsole(browser, stack.api.baseUrl);
    tabs.push(other);
    await signInThroughPage(other.page, stack.customer.email, customerPassword);
    await other.page.getByRole('heading', { name: 'Servers' }).waitFor();
    await other.page.getByRole('link', { name: 'Account' }).click();
    await other.page.locator(`li[data-session="${session.id}"] button`).click();
    await expect.poll(() => other.page.locator(`li[data-session="${session.id}"]`).count()).toBe(0);

    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('heading', { name: 'Sign in to pvecp' }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('Your session has ended. Please sign in again.');
  });

  it('is usable at phone width', async () => {
    const phone = await customerTab({ phone: true });
    await phone.locator('tr[data-server="web-console-1"]').waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'servers-phone');
    // Running for days again, so the phone shows its graphs.
    await stack.client.POST('/v1/instances/{id}/start', { params: { path: { id: serverId } } });
    await stack.waitForStatus(serverId, ['running']);
    await serverUpFor(stack, serverId, 3 * 86_400);
    await phone.locator('tr[data-server="web-console-1"] a').first().click();
    await phone.locator('#usage .graphs figure').first().waitFor();
    const serverOverflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(serverOverflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'server-phone');
  });
});

describe('the console as an operator', () => {
  let operatorPage: Page;

  it('releases a parked rollback with the retry action', async () => {
    await stack.sim.fault({ op: 'start', mode: 'task_fail' });
    await stack.sim.fault({ op: 'destroy', count: 10_000, mode: 'http500', message: 'cfs-lock timeout' });
    const created = await stack.create({ hostname: 'parked-1' });
    const id = created.body.data.id as string;
    await stack.waitForStatus(id, ['rollback_failed'], 60_000);

    const admin = (await stack.adminClient.POST('/v1/admin/users', { body: { email: 'ops@example.com', role: 'admin' } })).data?.data.id as string;
    const password = newPassword();
    await setPassword(stack.api, admin, password);
    const tab = await openConsole(browser, stack.api.baseUrl);
    tabs.push(tab);
    await signInThroughPage(tab.page, 'ops@example.com', password);
    const card = tab.page.locator('li[data-parked="parked-1"]');
    await card.waitFor();
    expect(await card.textContent()).toContain('cfs-lock timeout');
    await screenshot(tab.page, 'operator-parked');

    await stack.sim.clearFaults();
    await card.getByRole('button', { name: 'Retry rollback' }).click();
    await expect.poll(() => tab.page.getByRole('status').first().textContent()).toContain('Retrying the rollback of parked-1.');
    await stack.waitForStatus(id, ['failed'], 60_000);
    expect(await stack.api.db.auditEvent.count({ where: { instanceId: id, action: 'rollback.retry_requested' } })).toBe(1);
    operatorPage = tab.page;
  });

  it('drains a node from the catalog and reads tenants with their quota and usage', async () => {
    await operatorPage.getByRole('link', { name: 'Catalog' }).click();
    const node = operatorPage.locator('tr[data-node="pve1"]');
    await node.waitFor();
    await node.getByRole('button', { name: 'Drain pve1' }).click();
    await expect.poll(() => node.textContent()).toContain('draining');
    expect((await stack.api.db.node.findFirstOrThrow({ where: { connectionId: stack.seed.connectionId, name: 'pve1' } })).draining).toBe(true);
    await screenshot(operatorPage, 'operator-catalog');
    await node.getByRole('button', { name: 'Stop draining pve1' }).click();
    await expect.poll(() => node.textContent()).toContain('taking servers');

    await operatorPage.getByRole('link', { name: 'Tenants and users' }).click();
    const tenant = operatorPage.locator('[data-tenant="demo"]');
    await tenant.waitFor();
    expect(await tenant.textContent()).toContain('Holds 0 of 20 servers');
    await screenshot(operatorPage, 'operator-tenants');
  });

  it('registers an image by URL on the catalog page and shows each node importing, then ready', async () => {
    const images = await startImageServer();
    try {
      await operatorPage.getByRole('link', { name: 'Catalog' }).click();
      await operatorPage.getByLabel('Name', { exact: true }).waitFor();
      // The download runs slowly enough to be seen importing.
      const body = images.bodyOf(DEFAULT_IMAGE.path) as Buffer;
      images.serve('/images/slow.qcow2', { body, bytesPerSecond: 64 * 1024 });
      images.serve('/images/slow.SHA256SUMS', { body: Buffer.from(checksumsFile('sha256', { 'slow.qcow2': body })) });
      await operatorPage.getByLabel('Name', { exact: true }).fill('debian-13');
      await operatorPage.getByLabel('OS').fill('debian');
      await operatorPage.getByLabel('Version').fill('13');
      await operatorPage.getByLabel('Default user').fill('debian');
      await operatorPage.getByLabel('Image URL').fill(images.urlOf('/images/slow.qcow2'));
      await operatorPage.getByLabel('Checksum URL').fill(images.urlOf('/images/slow.SHA256SUMS'));
      await operatorPage.getByLabel('Refresh every (optional)').fill('24h');
      await operatorPage.getByRole('button', { name: 'Register image' }).click();
      const pve1 = operatorPage.locator('tr[data-build="debian-13/pve1/1"]');
      await pve1.waitFor();
      await expect.poll(() => pve1.textContent(), { timeout: 30_000 }).toContain('importing');
      expect(await operatorPage.getByText('debian-13 · ').textContent()).toContain('refreshed every 24h');
      await screenshot(operatorPage, 'operator-image-importing');
      await expect.poll(() => pve1.textContent(), { timeout: 90_000 }).toContain('ready');
      for (const node of ['pve2', 'pve3']) expect(await operatorPage.locator(`tr[data-build="debian-13/${node}/1"]`).textContent()).toContain('ready');
      await screenshot(operatorPage, 'operator-image-ready');
    } finally {
      await images.close();
      // Its refresh schedule would outlive this file on the run's Temporal dev server.
      const image = await stack.api.db.image.findUnique({ where: { name: 'debian-13' } });
      if (image) await stack.api.temporal.schedule.getHandle(imageRefreshScheduleId(image.id)).delete().catch(() => undefined);
    }
  });
});
