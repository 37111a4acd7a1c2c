import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/db/audit';
import { appendEvents } from '../../src/db/events';
import { becameRunning, operationBegun, provisioningStarted, scheduled, type TransitionColumns } from '../../src/db/instance-state';
import { seedDemoCatalog } from '../../src/db/seed';
import { newId } from '../../src/security/ids';
import { SecretBox } from '../../src/security/secrets';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
let seed: { tenantId: string; userId: string; connectionId: string; locationId: string; planId: string; imageId: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const seeded = await seedDemoCatalog(database.db, new SecretBox(randomBytes(32).toString('base64')), {
    proxmoxUrl: 'http://127.0.0.1:1',
    tokenId: 'root@pam!test',
    tokenSecret: 'secret',
    plaintextLab: true,
  });
  if (!seeded.seeded) throw new Error('the test database was not empty');
  seed = { ...seeded, planId: Object.values(seeded.plans)[0] as string, imageId: Object.values(seeded.images)[0] as string };
});

afterAll(() => database?.drop());

async function pendingInstance(): Promise<string> {
  const id = newId('inst');
  await database.db.instance.create({
    data: {
      id,
      tenantId: seed.tenantId,
      projectId: (await database.db.project.findFirstOrThrow({ where: { tenantId: seed.tenantId, isDefault: true } })).id,
      userId: seed.userId,
      hostname: `h-${id.slice(-6)}`,
      status: 'pending',
      desiredState: 'running',
      planId: seed.planId,
      locationId: seed.locationId,
      imageId: seed.imageId,
      connectionId: seed.connectionId,
      username: 'debian',
      sshKeys: [],
      credentialType: 'PASSWORD',
      chargedVcpus: 1,
      chargedMemoryMiB: 1024,
      chargedDiskGiB: 10,
    },
  });
  return id;
}

describe('the demo seed', () => {
  it('makes its customer the owner of the demo tenant, so the demo token may create servers', async () => {
    expect(await database.db.user.findUniqueOrThrow({ where: { id: seed.userId } })).toMatchObject({ role: 'customer', tenantId: seed.tenantId, tenantRole: 'owner' });
  });
});

describe('audit rows', () => {
  it('an instance action carries the instance and its tenant', async () => {
    const instanceId = await pendingInstance();
    await recordAudit(database.db, { action: 'rollback.retry_requested', actorUserId: seed.userId, tenantId: seed.tenantId, instanceId });
    const row = await database.db.auditEvent.findFirstOrThrow({ where: { instanceId, action: 'rollback.retry_requested' } });
    expect(row).toMatchObject({ tenantId: seed.tenantId, actorUserId: seed.userId, details: null });
  });

  it('an instance action without its tenant does not compile', () => {
    // @ts-expect-error an instance's action names its tenant
    const entry: Parameters<typeof recordAudit>[1] = { action: 'credential.revealed', instanceId: 'inst_x' };
    expect(entry.action).toBe('credential.revealed');
  });

  it('a platform action has no tenant or instance', async () => {
    await recordAudit(database.db, { action: 'vmid.released', details: { vmid: 1234 } });
    const row = await database.db.auditEvent.findFirstOrThrow({ where: { action: 'vmid.released' } });
    expect(row).toMatchObject({ tenantId: null, instanceId: null, actorUserId: null, details: { vmid: 1234 } });
  });

  it('scheduling and running are each written with their audit row and their events in order', async () => {
    const instanceId = await pendingInstance();
    await database.db.$transaction((tx) => scheduled(tx, instanceId, { actorUserId: seed.userId, node: 'pve1', vmid: 4242, templateVmid: null }));
    await provisioningStarted(database.db, instanceId);
    expect(await database.db.$transaction((tx) => becameRunning(tx, instanceId))).toBe('changed');
    expect(await database.db.$transaction((tx) => becameRunning(tx, instanceId))).toBe('already');
    const row = await database.db.instance.findUniqueOrThrow({ where: { id: instanceId } });
    expect(row).toMatchObject({ status: 'running', desiredState: 'running', node: 'pve1', vmid: 4242, templateVmid: null, failureCode: null });
    const audits = await database.db.auditEvent.findMany({ where: { instanceId }, orderBy: { id: 'asc' } });
    expect(audits.map((a) => [a.action, a.actorUserId, a.tenantId, a.details])).toEqual([
      ['instance.create', seed.userId, seed.tenantId, { from: 'pending', to: 'scheduling' }],
      ['instance.ready', null, seed.tenantId, { from: 'provisioning', to: 'running' }],
    ]);
    const events = await database.db.instanceEvent.findMany({ where: { instanceId }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['instance.created', { status: 'scheduling', hostname: row.hostname }],
      ['instance.scheduled', { status: 'scheduling', hostname: row.hostname }],
      ['instance.running', { status: 'running', hostname: row.hostname }],
    ]);
  });

  it('a move the status matrix refuses writes nothing', async () => {
    const instanceId = await pendingInstance();
    await expect(database.db.$transaction((tx) => becameRunning(tx, instanceId))).rejects.toThrow('cannot go from pending to running');
    expect(await database.db.instanceEvent.count({ where: { instanceId } })).toBe(0);
    expect(await database.db.auditEvent.count({ where: { instanceId } })).toBe(0);
  });

  it('a transition audits with the instance tenant', async () => {
    const instanceId = await pendingInstance();
    await provisioningStarted(database.db, instanceId);
    await database.db.$transaction((tx) => becameRunning(tx, instanceId));
    const row = await database.db.auditEvent.findFirstOrThrow({ where: { instanceId, action: 'instance.ready' } });
    expect(row).toMatchObject({ tenantId: seed.tenantId, details: { from: 'provisioning', to: 'running' } });
  });
});

describe('instance transitions', () => {
  it('write their own status whatever the columns beside it say', async () => {
    const instanceId = await pendingInstance();
    await provisioningStarted(database.db, instanceId);
    await database.db.$transaction((tx) => becameRunning(tx, instanceId));
    // A caller that gets around the type still cannot choose the status.
    const set = { status: 'failed', desiredState: 'stopped' } as TransitionColumns;
    await database.db.$transaction((tx) => operationBegun(tx, instanceId, { operation: 'stop', actorUserId: seed.userId, taskId: newId('task'), set }));
    const row = await database.db.instance.findUniqueOrThrow({ where: { id: instanceId } });
    expect(row).toMatchObject({ status: 'stopping', desiredState: 'stopped' });
  });

  it('cannot be given a status by the types', () => {
    // @ts-expect-error the status is the transition's own
    const set: TransitionColumns = { status: 'failed' };
    expect(set).toBeDefined();
  });
});

describe('webhook deliveries', () => {
  it('an event moved in one statement and one appended reach the same endpoints, with ids of newId\'s shape', async () => {
    const otherTenantId = newId('ten');
    await database.db.tenant.create({ data: { id: otherTenantId, name: 'other', quotaInstances: 1, quotaVcpus: 1, quotaMemoryMiB: 1024, quotaDiskGiB: 10 } });
    const endpoint = async (tenantId: string | null, eventTypes: string[], status: 'enabled' | 'disabled' = 'enabled') => {
      const { id } = await database.db.webhookEndpoint.create({ data: { id: newId('whk'), tenantId, url: 'http://127.0.0.1:1/hook', eventTypes, secretCipher: 'unused', status, createdBy: seed.userId } });
      return id;
    };
    const everyType = await endpoint(seed.tenantId, []);
    const running = await endpoint(seed.tenantId, ['instance.running']);
    await endpoint(seed.tenantId, ['instance.stopped']);
    const platform = await endpoint(null, ['instance.created', 'instance.running']);
    await endpoint(seed.tenantId, [], 'disabled');
    await endpoint(otherTenantId, []);
    try {
      const moved = await pendingInstance();
      await database.db.$transaction((tx) => scheduled(tx, moved, { actorUserId: seed.userId, node: 'pve1', vmid: 4343, templateVmid: null }));
      await provisioningStarted(database.db, moved);
      await database.db.$transaction((tx) => becameRunning(tx, moved));
      const appended = await pendingInstance();
      await database.db.$transaction((tx) =>
        appendEvents(
          tx,
          { tenantId: seed.tenantId, instanceId: appended },
          (['instance.created', 'instance.scheduled', 'instance.running'] as const).map((type) => ({ type, data: { status: 'running' } })),
        ),
      );

      const reached = async (instanceId: string) => {
        const deliveries = await database.db.webhookDelivery.findMany({ where: { instanceId }, orderBy: [{ eventSeq: 'asc' }, { endpointId: 'asc' }] });
        for (const delivery of deliveries) expect(delivery.id).toMatch(/^whd_[0-9a-z]{24}$/);
        return deliveries.map((delivery) => [delivery.eventType, delivery.endpointId]);
      };
      const wanting = { 'instance.created': [everyType, platform], 'instance.scheduled': [everyType], 'instance.running': [everyType, running, platform] };
      const expected = Object.entries(wanting).flatMap(([type, endpoints]) => endpoints.sort().map((endpointId) => [type, endpointId]));
      expect(await reached(moved)).toEqual(expected);
      expect(await reached(appended)).toEqual(expected);
    } finally {
      await database.db.webhookEndpoint.deleteMany();
    }
  });
});
