/**
 * What a stage reads before it talks to Proxmox: its instance, the instance's Proxmox connection
 * and the relations the stage names, in one statement on the pool (Prisma would send one per
 * relation, each costing several times the CPU; bench/README.md, "Profile"). The rows keep
 * the generated model types.
 */
import type { Prisma } from '../generated/prisma/client';
import { sqlOf, type Db } from './client';
import { PRISMA_LIKE_TYPES, revive } from './pg-rows';

/** The relations a stage may read with its instance. */
export interface StageRelations {
  plan?: true;
  volumes?: true;
  addresses?: { include: { pool: true } };
  image?: { include: { templates: true } };
}

export type StageInstance<R extends StageRelations> = Prisma.InstanceGetPayload<{ include: R & { connection: true } }>;

/** Each relation as one JSON value of the same statement. */
const RELATION_SQL: Record<keyof StageRelations, string> = {
  plan: `(SELECT row_to_json(p) FROM plans p WHERE p.id = i."planId")`,
  volumes: `(SELECT COALESCE(json_agg(v ORDER BY v.id), '[]') FROM volumes v WHERE v."instanceId" = i.id)`,
  addresses: `(SELECT COALESCE(json_agg(to_jsonb(a) || jsonb_build_object('pool', to_jsonb(p)) ORDER BY a.id), '[]')
               FROM ip_addresses a JOIN ip_pools p ON p.id = a."poolId" WHERE a."instanceId" = i.id)`,
  image: `(SELECT to_jsonb(im) || jsonb_build_object('templates', (SELECT COALESCE(jsonb_agg(t ORDER BY t.id), '[]') FROM image_templates t WHERE t."imageId" = im.id))
           FROM images im WHERE im.id = i."imageId")`,
};

/** The instance, its connection and the named relations; undefined when there is no such instance. */
export async function readStageInstance<const R extends StageRelations>(db: Db, instanceId: string, relations?: R): Promise<StageInstance<R> | undefined> {
  const names = Object.keys(relations ?? {}) as (keyof StageRelations)[];
  const { rows } = await sqlOf(db).query<Record<string, unknown>>({
    text: `SELECT i.*, to_jsonb(c) AS connection${names.map((name) => `, ${RELATION_SQL[name]} AS "${name}"`).join('')}
           FROM instances i JOIN proxmox_connections c ON c.id = i."connectionId" WHERE i.id = $1`,
    values: [instanceId],
    types: PRISMA_LIKE_TYPES,
  });
  const [row] = rows;
  if (!row) return undefined;
  for (const name of ['connection', ...names]) row[name] = revive(row[name]);
  return row as StageInstance<R>;
}
