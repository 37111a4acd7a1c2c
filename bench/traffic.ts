/**
 * The traffic sampler and the usage export at scale, in this process against its own database and
 * the simulator (no Temporal: the activity and the service are called as the worker and the API
 * call them):
 *
 *   npx tsx bench/traffic.ts                                  # 10,000 and 30,000 guests; 250 and 1,000 servers' month
 *   npx tsx bench/traffic.ts --guests=5000,30000 --servers=1000
 *
 * For each guest count: one sampling pass with every server counted before (the steady state),
 * its time, its Proxmox calls and its SQL statements. For each server count: every usage record of
 * a 31-day month (744 per server) read as the CSV export reads them, its time and statements.
 */
import { randomBytes } from 'node:crypto';
import { databaseUrl, dropDatabase, ensureMigratedDatabase } from '../scripts/database';
import { createSampleTrafficActivity } from '../src/activities/traffic';
import { loadConfig } from '../src/config';
import { createDb, runSql } from '../src/db/client';
import { seedDemoCatalog } from '../src/db/seed';
import { Prisma } from '../src/generated/prisma/client';
import { createLogger } from '../src/logger';
import { proxmoxClientFactory } from '../src/proxmox/factory';
import { secretBoxOf } from '../src/security/secrets';
import { allUsageRecords } from '../src/services/usage-records';
import { createSimulator, DEFAULT_SIM_TOKEN, parseToken } from '../src/simulator/server';
import { between, countQueries, snapshot, total } from './query-count';

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const option = (name: string, fallback: number[]) => {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given ? given.slice(name.length + 3).split(',').map(Number) : fallback;
};
const guestCounts = option('guests', [10_000, 30_000]);
const serverCounts = option('servers', [250, 1_000]);
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  countQueries();
  const name = `pvecp_bench_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(ADMIN_DATABASE_URL, name);
  await ensureMigratedDatabase(url);
  const simulator = createSimulator({ token: DEFAULT_SIM_TOKEN, taskMs: 0, maxRecordedRequests: 0 });
  const listening = await simulator.listen(0, '127.0.0.1');
  const config = loadConfig({ DATABASE_URL: url, ENCRYPTION_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'error' });
  const secrets = secretBoxOf(config);
  const db = createDb(url, 4);
  try {
    const { tokenId, secret } = parseToken(DEFAULT_SIM_TOKEN);
    const seed = await seedDemoCatalog(db, secrets, { proxmoxUrl: listening.url, tokenId, tokenSecret: secret, plaintextLab: true });
    if (!seed.seeded) throw new Error('the demo catalog was not seeded');
    const control = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${listening.url}/_sim/${route}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      if (!response.ok) throw new Error(`simulator ${route}: ${response.status}`);
      return response.json() as Promise<{ calls: Record<string, number> }>;
    };
    const sampleTraffic = createSampleTrafficActivity({ db, proxmox: proxmoxClientFactory(secrets), secrets, config, logger: createLogger('bench', 'error') });
    const smallPlan = seed.plans.small as string;
    /** `count` running servers on guests of their own, from VMID `first` on. */
    const addServers = async (first: number, count: number, createdAt: Date) => {
      const ids = Array.from({ length: count }, (_, i) => `inst_bench${first + i}`);
      await runSql(
        db,
        Prisma.sql`INSERT INTO instances (id, "tenantId", "projectId", "userId", hostname, status, "desiredState", "planId", "locationId", "imageId", "connectionId", node, vmid, username, "sshKeys", "credentialType", "chargedVcpus", "chargedMemoryMiB", "chargedDiskGiB", "createdAt", "updatedAt")
          SELECT id, ${seed.tenantId}, (SELECT p.id FROM projects p WHERE p."tenantId" = ${seed.tenantId} AND p."isDefault"), ${seed.userId}, 'srv-' || vmid, 'running', 'running', ${smallPlan}, ${seed.locationId}, ${seed.images['debian-12'] as string}, ${seed.connectionId}, 'pve1', vmid, 'debian', '{}', 'PASSWORD', 1, 1024, 10, ${createdAt}, ${createdAt}
            FROM unnest(${ids}::text[], ${Array.from({ length: count }, (_, i) => first + i)}::int[]) AS s (id, vmid)`,
      );
      return ids;
    };

    console.log('| guests | pass ms | Proxmox calls | SQL statements | ms per 1,000 guests |');
    console.log('|---:|---:|---:|---:|---:|');
    let seeded = 0;
    const firstVmid = 100_000;
    for (const guests of guestCounts) {
      await control('POST', 'guests', { count: guests - seeded, firstVmid: firstVmid + seeded, status: 'running' });
      await addServers(firstVmid + seeded, guests - seeded, new Date());
      seeded = guests;
      await sampleTraffic({ connectionId: seed.connectionId });
      const [queries, calls] = [snapshot(), (await control('GET', 'state')).calls];
      const start = process.hrtime.bigint();
      const summary = await sampleTraffic({ connectionId: seed.connectionId });
      const elapsed = ms(start);
      const callsAfter = (await control('GET', 'state')).calls;
      const proxmoxCalls = Object.entries(callsAfter).reduce((sum, [call, n]) => sum + n - (calls[call] ?? 0), 0);
      if (summary.counted !== guests) throw new Error(`counted ${summary.counted} of ${guests}`);
      console.log(`| ${guests} | ${Math.round(elapsed)} | ${proxmoxCalls} | ${total(between(queries, snapshot()))} | ${Math.round((elapsed / guests) * 1000)} |`);
    }

    console.log('\n| servers | records | export ms | SQL statements | µs per record |');
    console.log('|---:|---:|---:|---:|---:|');
    const month = { from: new Date(Date.UTC(2026, 9, 1)), to: new Date(Date.UTC(2026, 10, 1)) };
    await runSql(db, Prisma.sql`UPDATE instances SET "createdAt" = ${new Date(Date.UTC(2026, 8, 1))}, "tenantId" = ${seed.tenantId}`);
    for (const servers of serverCounts) {
      const tenant = `ten_bench${servers}`;
      await runSql(db, Prisma.sql`INSERT INTO tenants (id, name, "quotaInstances", "quotaVcpus", "quotaMemoryMiB", "quotaDiskGiB", "createdAt") VALUES (${tenant}, ${tenant}, 0, 0, 0, 0, now()) ON CONFLICT DO NOTHING`);
      await runSql(
        db,
        Prisma.sql`UPDATE instances SET "tenantId" = ${tenant} WHERE id IN (SELECT id FROM instances WHERE id LIKE 'inst_bench%' AND "tenantId" = ${seed.tenantId} ORDER BY id LIMIT ${servers})`,
      );
      await runSql(
        db,
        Prisma.sql`INSERT INTO usage_hours ("instanceId", "tenantId", hour, "inBytes", "outBytes", running, addresses, "backupBytes", "snapshotCount")
          SELECT i.id, i."tenantId", h, 3600 * 1536, 3600 * 917, true, 2, 0, 0 FROM instances i, generate_series(${month.from}::timestamp, ${month.to}::timestamp - interval '1 hour', interval '1 hour') AS h
           WHERE i."tenantId" = ${tenant} ON CONFLICT DO NOTHING`,
      );
      const queries = snapshot();
      const start = process.hrtime.bigint();
      let records = 0;
      for await (const record of allUsageRecords({ db }, { userId: 'bench', tokenId: 'bench', role: 'admin', tenantId: null, tenantRole: null }, { ...month, tenantId: tenant })) {
        if (record.seconds > 0) records++;
      }
      const elapsed = ms(start);
      if (records !== servers * 744) throw new Error(`exported ${records} records of ${servers * 744}`);
      console.log(`| ${servers} | ${records} | ${Math.round(elapsed)} | ${total(between(queries, snapshot()))} | ${Math.round((elapsed / records) * 1000)} |`);
    }
  } finally {
    await db.$disconnect();
    await listening.close();
    await dropDatabase(ADMIN_DATABASE_URL, name);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
