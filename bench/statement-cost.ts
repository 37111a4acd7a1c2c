/**
 * CPU per statement, measured alone in this process: the same reads and writes through Prisma
 * (typed queries, raw statements, interactive transactions) and on the `pg` pool its adapter
 * uses. Each shape runs `--calls` times one after another (after a warm-up); the figure is this
 * process's user + system CPU per call, so PostgreSQL's own time is left out.
 *
 *   npx tsx bench/statement-cost.ts --calls=2000
 */
import { randomBytes } from 'node:crypto';
import { databaseUrl, dropDatabase, ensureMigratedDatabase } from '../scripts/database';
import { createDb, sqlOf } from '../src/db/client';
import { seedDemoCatalog } from '../src/db/seed';
import { SecretBox } from '../src/security/secrets';
import { round } from './stats';

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function cpuPerCall(calls: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, calls); i++) await run();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await run();
  const used = process.cpuUsage(before);
  return round((used.user + used.system) / 1000 / calls, 3);
}

async function main(): Promise<void> {
  const calls = Number(/^--calls=(\d+)$/.exec(process.argv[2] ?? '')?.[1] ?? 2000);
  const name = `pvecp_cost_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(ADMIN_DATABASE_URL, name);
  await ensureMigratedDatabase(url);
  const db = createDb(url, 4);
  try {
    const secrets = new SecretBox(randomBytes(32).toString('base64'));
    await seedDemoCatalog(db, secrets, { proxmoxUrl: 'https://127.0.0.1:8006', tokenId: 'bench@pve!cost', tokenSecret: 'x', plaintextLab: true });
    const location = await db.location.findFirstOrThrow();
    const sql = sqlOf(db);
    const joined = `SELECT l.*, row_to_json(c) AS connection FROM locations l JOIN proxmox_connections c ON c.id = l."connectionId" WHERE l.id = $1`;
    const shapes: [string, () => Promise<unknown>][] = [
      ['pg pool: one-row SELECT', () => sql.query('SELECT * FROM locations WHERE id = $1', [location.id])],
      ['pg pool: SELECT with its relation joined (row_to_json)', () => sql.query(joined, [location.id])],
      ['pg pool: UPDATE … RETURNING', () => sql.query('UPDATE locations SET "snapshotsSupported" = true WHERE id = $1 RETURNING id', [location.id])],
      [
        'pg pool: BEGIN, one UPDATE, COMMIT (one client)',
        async () => {
          const client = await sql.connect();
          try {
            await client.query('BEGIN');
            await client.query('UPDATE locations SET "snapshotsSupported" = true WHERE id = $1', [location.id]);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        },
      ],
      ['Prisma: $queryRaw one-row SELECT', () => db.$queryRaw`SELECT * FROM locations WHERE id = ${location.id}`],
      ['Prisma: $queryRaw SELECT with its relation joined', () => db.$queryRawUnsafe(joined, location.id)],
      ['Prisma: typed findUnique', () => db.location.findUnique({ where: { id: location.id } })],
      ['Prisma: typed findUnique, include one relation', () => db.location.findUnique({ where: { id: location.id }, include: { connection: true } })],
      ['Prisma: typed update', () => db.location.update({ where: { id: location.id }, data: { snapshotsSupported: true } })],
      ['Prisma: $executeRaw UPDATE', () => db.$executeRaw`UPDATE locations SET "snapshotsSupported" = true WHERE id = ${location.id}`],
      ['Prisma: $transaction with one $executeRaw', () => db.$transaction((tx) => tx.$executeRaw`UPDATE locations SET "snapshotsSupported" = true WHERE id = ${location.id}`)],
    ];
    console.log(`| statement shape | CPU per call (ms), ${calls} calls |\n|---|---|`);
    for (const [label, run] of shapes) console.log(`| ${label} | ${await cpuPerCall(calls, run)} |`);
  } finally {
    await db.$disconnect();
    await dropDatabase(ADMIN_DATABASE_URL, name);
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
