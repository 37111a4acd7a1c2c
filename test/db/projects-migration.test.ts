/**
 * The projects migration on a database that holds servers from before it: every tenant gets one
 * default project and every server lands in its tenant's default project.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../src/db/client';
import { seedDemoCatalog } from '../../src/db/seed';
import { Prisma } from '../../src/generated/prisma/client';
import { newId } from '../../src/security/ids';
import { SecretBox } from '../../src/security/secrets';
import { projectRoot } from '../../scripts/temporal';
import { createTestDatabase, type TestDatabase } from '../support/database';

const MIGRATION = readFileSync(join(projectRoot, 'prisma/migrations/20261219000000_projects/migration.sql'), 'utf8');

/** What the migration adds, taken away again: the database as it was before it, with its data. */
const BEFORE_PROJECTS = `
  ALTER TABLE api_tokens DROP COLUMN "projectId";
  ALTER TABLE instances DROP COLUMN "projectId";
  DROP TABLE project_members;
  DROP TABLE projects;
  DROP TYPE "ProjectRole";`;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('the projects migration', () => {
  it("gives every tenant one default project and puts every existing server of the tenant in it", async () => {
    const { db } = database;
    const seeded = await seedDemoCatalog(db, new SecretBox(randomBytes(32).toString('base64')), { proxmoxUrl: 'http://127.0.0.1:1', tokenId: 'root@pam!test', tokenSecret: 'secret', plaintextLab: true });
    if (!seeded.seeded) throw new Error('the test database was not empty');
    const other = newId('ten');
    await runSql(db, Prisma.sql`INSERT INTO tenants (id, name, "quotaInstances", "quotaVcpus", "quotaMemoryMiB", "quotaDiskGiB") VALUES (${other}, 'other', 5, 5, 5120, 50)`);
    const otherUser = newId('usr');
    await runSql(db, Prisma.sql`INSERT INTO users (id, "tenantId", email, role, "tenantRole") VALUES (${otherUser}, ${other}, 'other@example.com', 'customer', 'owner')`);
    await db.$executeRawUnsafe(BEFORE_PROJECTS);

    const servers = [
      [newId('inst'), seeded.tenantId, seeded.userId],
      [newId('inst'), seeded.tenantId, seeded.userId],
      [newId('inst'), other, otherUser],
    ] as const;
    for (const [id, tenantId, userId] of servers) {
      await runSql(db, Prisma.sql`
        INSERT INTO instances (id, "tenantId", "userId", hostname, status, "desiredState", "planId", "locationId", "imageId", "connectionId", username, "sshKeys", "credentialType", "chargedVcpus", "chargedMemoryMiB", "chargedDiskGiB", "updatedAt")
        VALUES (${id}, ${tenantId}, ${userId}, ${`h-${id.slice(-6)}`}, 'running', 'running', ${Object.values(seeded.plans)[0]}, ${seeded.locationId}, ${Object.values(seeded.images)[0]}, ${seeded.connectionId}, 'debian', '{}', 'PASSWORD', 1, 1024, 10, now())`);
    }

    await db.$executeRawUnsafe(MIGRATION);

    const projects = await db.project.findMany({ orderBy: { tenantId: 'asc' } });
    expect(projects.map((p) => [p.tenantId, p.name, p.isDefault, p.allowedPlanIds, p.quotaInstances])).toEqual(
      [seeded.tenantId, other].sort().map((tenantId) => [tenantId, 'Default', true, [], null]),
    );
    const defaultOf = new Map(projects.map((p) => [p.tenantId, p.id]));
    const rows = await db.instance.findMany({ where: { id: { in: servers.map(([id]) => id) } } });
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.projectId).toBe(defaultOf.get(row.tenantId));
  });
});
