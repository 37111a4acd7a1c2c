import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import { AppError, notFound } from '../../domain/errors';
import { newId } from '../../security/ids';
import type { Image, IpPool, Location, Node, Plan, Prisma, ProxmoxConnection } from '../../generated/prisma/client';
import type { InstanceStatus } from '../../generated/prisma/enums';
import { fits, moveVmidRange, type Sizing } from '../../db/reservations';
import { canonicalAddress } from '../../net/ip';
import type { Tx } from '../../db/client';
import { upsertReconcileSchedule } from '../../temporal/schedules';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { conflictOnDuplicate } from '../errors';
import type { ClusterIdentity } from '../../proxmox';
import { assertNodeInCluster, assertNoVmidOverlap, assertPrivileges, assertSnippetsVisible, identifyCluster, savedIdentity, savedTarget } from '../cluster-identity';
import { listHandler, type PageArgs, parseBody, pathParam, send } from '../http';
import type { Cursor } from '../openapi';
import { adminConnectionView, adminImageView, adminIpPoolView, adminLocationView, adminNodeView, adminPlanView } from '../catalog-views';
import { adminListQuerySchema } from '../schemas/catalog-fields';
import { type consoleUserSchema, createConnectionRequestSchema, type snippetsSchema, updateConnectionSchema, vmidRangeSchema } from '../schemas/connections';
import { createImageSchema, updateImageSchema } from '../schemas/images';
import { createIpPoolSchema, updateIpPoolSchema } from '../schemas/ip-pools';
import { createLocationSchema, updateLocationSchema } from '../schemas/locations';
import { nodeSpecSchema, updateNodeSchema } from '../schemas/nodes';
import { createPlanSchema, updatePlanSchema } from '../schemas/plans';
import '../schemas/catalog';
import { ipPoolProblems, type Network, networksOverlap, parseNetwork } from '../../net/pool-networks';
import { recordAudit, type PlatformAuditAction } from '../../db/audit';
import type { SecretBox } from '../../security/secrets';

// ---------- helpers ----------

/** A reference in the body to an object that does not exist is the caller's input error. */
const badReference = (fields: Record<string, string>) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields });

async function audit(tx: Tx, actorUserId: string, action: PlatformAuditAction, details: Prisma.InputJsonObject) {
  await recordAudit(tx, { action, actorUserId, details });
}

/** `archived` of a PATCH body as the archivedAt column: archiving keeps an earlier date, restoring clears it. */
const archiveChange = (archived: boolean | undefined, current: Date | null) =>
  archived === undefined ? {} : { archivedAt: archived ? (current ?? new Date()) : null };

/** `?archived=` of an admin list as a Prisma filter. */
const archivedFilter = (query: z.infer<typeof adminListQuerySchema>) =>
  query.archived === undefined ? {} : { archivedAt: query.archived === 'true' ? { not: null } : null };

/** A GET handler for an admin list: `fetch` reads a page whose `where` also holds the `?archived=` filter. */
const adminListHandler = <Row extends Cursor>(fetch: (page: PageArgs & { where: ReturnType<typeof archivedFilter> }) => Promise<Row[]>, view: (row: Row) => unknown) =>
  listHandler((page, query: z.infer<typeof adminListQuerySchema>) => fetch({ ...page, where: { ...page.where, ...archivedFilter(query) } }), view, adminListQuerySchema);

/** Fields whose values are secret or bulky: an audit row names them, never their value. */
const UNAUDITED_VALUES = new Set(['tokenSecret', 'consoleUser', 'caCert', 'snippets', 'templates']);

/**
 * What an update changed, for its audit row: the names of the fields the body sets to a new
 * value, and the old and new values of those that are neither secret nor bulky.
 */
function changesOf(before: Record<string, unknown>, body: Record<string, unknown>): { changed: string[]; before: Prisma.InputJsonObject; after: Prisma.InputJsonObject } {
  const changed = Object.keys(body).filter((key) => key !== 'force' && body[key] !== undefined && JSON.stringify(body[key]) !== JSON.stringify(before[key]));
  const shown = changed.filter((key) => !UNAUDITED_VALUES.has(key));
  const pick = (from: Record<string, unknown>) => Object.fromEntries(shown.map((key) => [key, (from[key] ?? null) as Prisma.InputJsonValue]));
  return { changed, before: pick(before), after: pick(body) };
}

/** The row's archived state as a PATCH body would say it, so `changesOf` compares like with like. */
const asBody = <T extends { archivedAt: Date | null }>(row: T) => ({ ...row, archived: row.archivedAt !== null });

/** The PATCH of one catalog type: how its row is locked and named, and what its own rules add. */
interface RowUpdate<S extends z.ZodType<{ archived?: boolean }>, Current extends { archivedAt: Date | null }, Row, Checked> {
  schema: S;
  duplicate: Parameters<typeof conflictOnDuplicate>;
  /** Reads the row `FOR UPDATE`: none or one. */
  lock: (tx: Tx, id: string) => Promise<Current[]>;
  /** What a 404 calls it. */
  noun: string;
  action: PlatformAuditAction;
  /** The audit detail that names the row, e.g. `planId`. */
  subject: string;
  check?: (id: string, body: z.infer<S>) => Promise<Checked>;
  /**
   * Refuses what the type's rules forbid and writes the update: `fields` is the body without
   * `archived`, `archive` its archivedAt column, `changes` what the audit row will record.
   */
  apply: (
    tx: Tx,
    update: { id: string; current: Current; fields: Omit<z.infer<S>, 'archived'>; archive: ReturnType<typeof archiveChange>; changes: ReturnType<typeof changesOf>; checked: Checked },
  ) => Promise<Row>;
  /** The row as a PATCH body would say it, for `changesOf`; `asBody` unless a field needs its own reading. */
  asBody?: (current: Current) => Record<string, unknown>;
  /** Audit details beyond the changed fields. */
  moreDetails?: (current: Current, checked: Checked) => Prisma.InputJsonObject;
  view: (row: Row) => unknown;
}

/** Every template names a node of a known connection. */
async function assertTemplateNodes(tx: Tx, templates: { connectionId: string; node: string }[]): Promise<void> {
  const connectionIds = [...new Set(templates.map((t) => t.connectionId))];
  const nodes = await tx.node.findMany({ where: { connectionId: { in: connectionIds } }, select: { connectionId: true, name: true } });
  const known = new Set(nodes.map((n) => `${n.connectionId}/${n.name}`));
  const knownConnections = new Set(nodes.map((n) => n.connectionId));
  const fields: Record<string, string> = {};
  templates.forEach((t, i) => {
    if (!knownConnections.has(t.connectionId)) fields[`templates.${i}.connectionId`] = 'no such connection';
    else if (!known.has(`${t.connectionId}/${t.node}`)) fields[`templates.${i}.node`] = 'no such node on this connection';
  });
  if (Object.keys(fields).length > 0) throw badReference(fields);
}

/**
 * Gives the pools to the location, only if no other location holds them (a concurrent claim
 * makes the count short); unknown pools are 400 (with the caller's other `fields` problems), taken
 * ones 409, each named by `field.<index>`.
 */
async function claimPools(tx: Tx, locationId: string, poolIds: string[], field: string, fields: Record<string, string> = {}): Promise<IpPool[]> {
  const pools = await tx.ipPool.findMany({ where: { id: { in: poolIds } } });
  const known = new Set(pools.map((p) => p.id));
  poolIds.forEach((poolId, i) => {
    if (!known.has(poolId)) fields[`${field}.${i}`] = 'no such IP pool';
  });
  if (Object.keys(fields).length > 0) throw badReference(fields);
  const claimed = await tx.ipPool.updateMany({ where: { id: { in: poolIds }, locationId: null }, data: { locationId } });
  if (claimed.count !== poolIds.length) {
    const held = await tx.ipPool.findMany({ where: { id: { in: poolIds }, NOT: { locationId } }, select: { id: true } });
    const heldIds = new Set(held.map((p) => p.id));
    const taken = poolIds.flatMap((poolId, i) => (heldIds.has(poolId) ? [[`${field}.${i}`, 'already in another location'] as const] : []));
    throw new AppError('CONFLICT', 'An IP pool already belongs to another location.', { fields: Object.fromEntries(taken) });
  }
  return pools;
}

/** A network of its family that no other pool overlaps, checked under a lock so two overlapping pools cannot both pass. */
async function assertNoPoolOverlap(tx: Tx, net: Network, exceptPoolId = ''): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('ip_pools.create'))`;
  const existing = await tx.ipPool.findMany({ where: { family: net.family, id: { not: exceptPoolId } }, select: { id: true, cidr: true } });
  const overlapping = existing.find((other) => {
    const otherNet = parseNetwork(other.cidr);
    return otherNet !== undefined && networksOverlap(net, otherNet);
  });
  if (overlapping) {
    throw new AppError('CONFLICT', `The network overlaps the pool ${overlapping.cidr}.`, { fields: { cidr: 'overlaps an existing pool' }, poolId: overlapping.id });
  }
}

/**
 * The snippets storage of a connection as the workers write it, through its directory mounted
 * where they run (assertSnippetsVisible then asks Proxmox); writing over SSH is modelled but not
 * supported yet.
 */
function writableSnippets(snippets: z.infer<typeof snippetsSchema> | null | undefined): { storage: string; directory: string } | null {
  if (!snippets) return null;
  if (snippets.ssh || snippets.directory === undefined) {
    throw new AppError('UNSUPPORTED', 'Writing snippets over SSH is not supported yet; mount the snippets storage on the control plane and name its directory.', {
      fields: { 'snippets.ssh': 'not supported yet' },
    });
  }
  return { storage: snippets.storage, directory: snippets.directory };
}

const snippetsColumns = (snippets: z.infer<typeof snippetsSchema> | null | undefined) =>
  snippets === undefined ? {} : { snippetsStorage: snippets?.storage ?? null, snippetsDirectory: snippets?.directory ?? null };

/** The console user's columns, its password sealed like the token secret (the connection id as associated data). */
const consoleUserColumns = (secrets: SecretBox, consoleUser: z.infer<typeof consoleUserSchema> | null | undefined, id: string) =>
  consoleUser === undefined
    ? {}
    : { consoleUsername: consoleUser?.username ?? null, consoleUserPasswordCipher: consoleUser ? secrets.seal(consoleUser.password, id) : null };

/** Capacity held on a node: reservations, allocations, and instances migrating to it. */
async function heldOn(tx: Tx, nodeId: string): Promise<Sizing> {
  const [held] = await tx.$queryRaw<{ vcpus: number; memory: number; disk: number }[]>`
    SELECT COALESCE(SUM(vcpus), 0)::int AS vcpus, COALESCE(SUM("memoryMiB"), 0)::int AS memory, COALESCE(SUM("diskGiB"), 0)::int AS disk
    FROM node_allocations WHERE ("nodeId" = ${nodeId} OR "targetNodeId" = ${nodeId}) AND state <> 'released'`;
  return { vcpus: held?.vcpus ?? 0, memoryMiB: held?.memory ?? 0, diskGiB: held?.disk ?? 0 };
}

/** Servers that still hold what they were made with (not deleted, not failed). */
const LIVE_INSTANCE = { status: { notIn: ['deleted', 'failed'] as InstanceStatus[] } };

/**
 * The catalog: plans, images and their templates, Proxmox VE connections and nodes, locations
 * and IP pools. Mounted under /v1/admin behind requireAdmin.
 *
 * Rules: a duplicate name (or CIDR) is 409 CONFLICT; a body reference to a missing object is
 * 400 INVALID_INPUT naming the field. Every create and update writes an audit row. Archiving
 * (PATCH `archived: true`) keeps an object working for what uses it and out of new creates.
 */
export function adminCatalogRouter(deps: ApiDeps): Router {
  const { db } = deps;
  const router = Router();

  /**
   * A POST handler that creates one object: `create` runs in one transaction with the validated
   * body (and writes its audit event), a duplicate is 409 CONFLICT, the answer is 201 with `view`.
   * `check`, when given, runs first, outside the transaction, and hands its finding to `create`;
   * `afterCommit` runs once the row is committed.
   */
  const createHandler =
    <S extends z.ZodType, Row, Checked = undefined>(
      schema: S,
      duplicate: Parameters<typeof conflictOnDuplicate>,
      create: (tx: Tx, body: z.infer<S>, actorUserId: string, checked: Checked) => Promise<Row>,
      view: (row: Row) => unknown,
      hooks: { check?: (body: z.infer<S>) => Promise<Checked>; afterCommit?: (row: Row) => Promise<void> } = {},
    ) =>
    async (req: Request, res: Response): Promise<void> => {
      const body = parseBody(schema, req);
      const actor = principal(req);
      const checked = (await hooks.check?.(body)) as Checked;
      const row = await db.$transaction((tx) => create(tx, body, actor.userId, checked)).catch(conflictOnDuplicate(...duplicate));
      await hooks.afterCommit?.(row);
      send(res, view(row), {}, 201);
    };

  /**
   * A PATCH handler for `/:id` of a catalog row. In one transaction it locks the row (404 when
   * there is none), lets `apply` refuse what the type's rules forbid and write the update, and
   * writes the `action` audit row with what the body changed; a duplicate is 409 CONFLICT, the
   * answer is 200 with `view`. `check` runs first, outside the transaction (e.g. asking Proxmox).
   */
  const updateHandler =
    <S extends z.ZodType<{ archived?: boolean }>, Current extends { archivedAt: Date | null }, Row, Checked = undefined>(spec: RowUpdate<S, Current, Row, Checked>) =>
    async (req: Request, res: Response): Promise<void> => {
      const body = parseBody(spec.schema, req);
      const id = pathParam(req, 'id');
      const actor = principal(req);
      const checked = (await spec.check?.(id, body)) as Checked;
      const row = await db
        .$transaction(async (tx) => {
          const [current] = await spec.lock(tx, id);
          if (!current) throw notFound(spec.noun);
          const { archived, ...fields } = body;
          const changes = changesOf((spec.asBody ?? asBody)(current), body);
          const updated = await spec.apply(tx, { id, current, fields, archive: archiveChange(archived, current.archivedAt), changes, checked });
          await audit(tx, actor.userId, spec.action, { [spec.subject]: id, ...changes, ...spec.moreDetails?.(current, checked) });
          return updated;
        })
        .catch(conflictOnDuplicate(...spec.duplicate));
      send(res, spec.view(row));
    };

  // ---------- plans ----------

  router.post(
    '/plans',
    createHandler(
      createPlanSchema,
      ['plan'],
      async (tx, body, actorUserId) => {
        const created = await tx.plan.create({ data: { id: newId('plan'), ...body, defaultUsername: body.defaultUsername ?? null } });
        await audit(tx, actorUserId, 'plan.created', { planId: created.id, name: created.name });
        return created;
      },
      adminPlanView,
    ),
  );

  router.get('/plans', adminListHandler((page) => db.plan.findMany(page), adminPlanView));

  /** Sizes are what servers were built and charged with: they stay while any server uses the plan. */
  router.patch(
    '/plans/:id',
    updateHandler({
      schema: updatePlanSchema,
      duplicate: ['plan'],
      lock: (tx, id) => tx.$queryRaw<Plan[]>`SELECT * FROM plans WHERE id = ${id} FOR UPDATE`,
      noun: 'plan',
      action: 'plan.updated',
      subject: 'planId',
      apply: async (tx, { id, fields, archive, changes }) => {
        const sizeChanged = changes.changed.filter((key) => ['vcpus', 'memoryMiB', 'diskGiB'].includes(key));
        if (sizeChanged.length > 0) {
          const instances = await tx.instance.count({ where: { planId: id, ...LIVE_INSTANCE } });
          if (instances > 0) {
            throw new AppError('CONFLICT', `The plan's sizes cannot change while ${instances} server(s) use it; create a new plan and archive this one.`, {
              fields: Object.fromEntries(sizeChanged.map((key) => [key, 'in use'])),
              instances,
            });
          }
        }
        return tx.plan.update({ where: { id }, data: { ...fields, ...archive } });
      },
      view: adminPlanView,
    }),
  );

  // ---------- images ----------

  router.post(
    '/images',
    createHandler(
      createImageSchema,
      ['image'],
      async (tx, body, actorUserId) => {
        await assertTemplateNodes(tx, body.templates);
        const imageId = newId('img');
        const created = await tx.image.create({
          data: {
            id: imageId,
            name: body.name,
            os: body.os,
            version: body.version,
            loginMethods: body.loginMethods,
            defaultUsername: body.defaultUsername ?? null,
            rootAllowed: body.rootAllowed,
            templates: { create: body.templates.map((t) => ({ id: newId('tpl'), connectionId: t.connectionId, node: t.node, templateVmid: t.templateVmid })) },
          },
          include: { templates: true },
        });
        await audit(tx, actorUserId, 'image.created', { imageId, name: created.name });
        return created;
      },
      adminImageView,
    ),
  );

  router.get('/images', adminListHandler((page) => db.image.findMany({ ...page, include: { templates: true } }), adminImageView));

  /** Login rules and templates apply to creates and rebuilds from now on; servers already made keep their login. */
  router.patch(
    '/images/:id',
    updateHandler({
      schema: updateImageSchema,
      duplicate: ['image'],
      lock: (tx, id) => tx.$queryRaw<Image[]>`SELECT * FROM images WHERE id = ${id} FOR UPDATE`,
      noun: 'image',
      action: 'image.updated',
      subject: 'imageId',
      apply: async (tx, { id, current: image, fields: { templates = [], ...fields }, archive }) => {
        const defaultUsername = fields.defaultUsername === undefined ? image.defaultUsername : fields.defaultUsername;
        if (defaultUsername === 'root' && !(fields.rootAllowed ?? image.rootAllowed)) throw badReference({ defaultUsername: 'root requires rootAllowed' });
        await assertTemplateNodes(tx, templates);
        for (const t of templates) {
          await tx.imageTemplate.upsert({
            where: { imageId_connectionId_node: { imageId: id, connectionId: t.connectionId, node: t.node } },
            create: { id: newId('tpl'), imageId: id, ...t },
            update: { templateVmid: t.templateVmid },
          });
        }
        return tx.image.update({ where: { id }, data: { ...fields, ...archive }, include: { templates: true } });
      },
      view: adminImageView,
    }),
  );

  // ---------- connections ----------

  /**
   * The token secret is sealed with the connection id as associated data and never returned.
   * Before anything is saved, Proxmox must answer the token and name its cluster, and no other
   * connection to that cluster may use an overlapping VMID range.
   */
  router.post(
    '/connections',
    createHandler(
      createConnectionRequestSchema,
      ['connection'],
      async (tx, body, actorUserId, identity: ClusterIdentity) => {
        const id = newId('conn');
        const created = await tx.proxmoxConnection.create({
          data: {
            id,
            name: body.name,
            url: body.url,
            tokenId: body.tokenId,
            tokenSecretCipher: deps.secrets.seal(body.tokenSecret, id),
            caCert: body.caCert ?? null,
            insecureTls: body.insecureTls ?? deps.config.PROXMOX_INSECURE_TLS_DEFAULT,
            plaintextLab: body.plaintextLab ?? false,
            clusterName: identity.clusterName,
            ...(body.storage ? { storage: body.storage } : {}),
            ...snippetsColumns(body.snippets),
            ...consoleUserColumns(deps.secrets, body.consoleUser, id),
            vmidStart: body.vmidRange.start,
            vmidEnd: body.vmidRange.end,
            nodes: { create: body.nodes.map((n) => ({ id: newId('node'), name: n.name, vcpus: n.vcpus, memoryMiB: n.memoryMiB, diskGiB: n.diskGiB })) },
          },
          include: { nodes: true },
        });
        await audit(tx, actorUserId, 'connection.created', { connectionId: id, name: created.name });
        return created;
      },
      adminConnectionView,
      {
        check: async (body) => {
          const snippets = writableSnippets(body.snippets);
          const target = { ...body, insecureTls: body.insecureTls ?? deps.config.PROXMOX_INSECURE_TLS_DEFAULT };
          const identity = await identifyCluster(target);
          await assertPrivileges(target, { storage: body.storage ?? 'local-lvm', snippetsStorage: body.snippets?.storage });
          await assertNoVmidOverlap(deps, identity, body.vmidRange);
          if (snippets) await assertSnippetsVisible(deps, target, body.nodes.map((n) => n.name), snippets);
          return identity;
        },
        // Its reconciler starts now; should Temporal be away, the next worker start sets it up.
        afterCommit: (created) =>
          upsertReconcileSchedule(deps.temporal, deps.config, created.id).then(
            () => undefined,
            (error: unknown) => deps.logger.warn({ err: error, connectionId: created.id }, 'could not create the reconcile schedule'),
          ),
      },
    ),
  );

  router.get('/connections', adminListHandler((page) => db.proxmoxConnection.findMany({ ...page, include: { nodes: true } }), adminConnectionView));

  /**
   * New URL, token or TLS settings are saved only once Proxmox answered GET /cluster/status with
   * them, and only for the cluster the connection was made for (unless `force`: then the new
   * cluster's name is recorded, and its VMID range must not overlap another connection's there).
   * Workers build a new Proxmox client for the changed row on their next call.
   */
  router.patch(
    '/connections/:id',
    updateHandler({
      schema: updateConnectionSchema,
      duplicate: ['connection'],
      lock: (tx, id) => tx.$queryRaw<ProxmoxConnection[]>`SELECT * FROM proxmox_connections WHERE id = ${id} FOR UPDATE`,
      noun: 'connection',
      action: 'connection.updated',
      subject: 'connectionId',
      check: async (id, body) => {
        const connection = await db.proxmoxConnection.findUnique({ where: { id }, include: { nodes: true } });
        if (!connection) throw notFound('connection');
        const snippets = writableSnippets(body.snippets);
        const target = {
          url: body.url ?? connection.url,
          tokenId: body.tokenId ?? connection.tokenId,
          tokenSecret: body.tokenSecret ?? deps.secrets.open(connection.tokenSecretCipher, connection.id),
          caCert: body.caCert === undefined ? connection.caCert : body.caCert,
          insecureTls: body.insecureTls ?? connection.insecureTls,
          plaintextLab: body.plaintextLab ?? connection.plaintextLab,
        };
        if (!target.plaintextLab && !target.url.startsWith('https:')) {
          throw new AppError('INVALID_INPUT', 'The request body is invalid.', { fields: { url: 'must be https (set plaintextLab for a plaintext lab endpoint)' } });
        }
        const reach = ['url', 'tokenId', 'tokenSecret', 'caCert', 'insecureTls', 'plaintextLab'] as const;
        const identity = reach.some((key) => body[key] !== undefined) ? await identifyCluster(target) : undefined;
        if (identity && connection.clusterName !== null && identity.clusterName !== connection.clusterName) {
          if (!body.force) {
            throw new AppError('CONFLICT', 'These settings reach another cluster than the one this connection was made for; send force: true to switch clusters.', {
              recordedClusterName: connection.clusterName,
              clusterName: identity.clusterName,
            });
          }
          await assertNoVmidOverlap(deps, identity, { start: connection.vmidStart, end: connection.vmidEnd }, id);
        }
        if (identity || body.storage !== undefined || body.snippets !== undefined) {
          const snippetsStorage = body.snippets === undefined ? connection.snippetsStorage : body.snippets?.storage;
          await assertPrivileges(target, { storage: body.storage ?? connection.storage, snippetsStorage });
        }
        if (snippets) await assertSnippetsVisible(deps, target, connection.nodes.map((n) => n.name), snippets);
        return identity;
      },
      apply: (tx, { id, fields: { tokenSecret, snippets, consoleUser, force: _force, ...fields }, archive, checked: identity }) =>
        tx.proxmoxConnection.update({
          where: { id },
          data: {
            ...fields,
            ...(tokenSecret !== undefined ? { tokenSecretCipher: deps.secrets.seal(tokenSecret, id) } : {}),
            ...(identity ? { clusterName: identity.clusterName } : {}),
            ...snippetsColumns(snippets),
            ...consoleUserColumns(deps.secrets, consoleUser, id),
            ...archive,
          },
          include: { nodes: true },
        }),
      asBody: (connection) => {
        const view = adminConnectionView({ ...connection, nodes: [] });
        return { ...asBody(connection), tokenSecret: undefined, snippets: view.snippets, consoleUser: view.consoleUser };
      },
      moreDetails: (connection, identity) =>
        identity && identity.clusterName !== connection.clusterName ? { clusterName: { before: connection.clusterName, after: identity.clusterName } } : {},
      view: adminConnectionView,
    }),
  );

  /**
   * A node's capacity, enabled and draining flags, under the node lock every placement takes.
   * Capacity below what servers hold there is refused with the numbers.
   */
  router.patch('/connections/:id/nodes/:node', async (req, res) => {
    const body = parseBody(updateNodeSchema, req);
    const connectionId = pathParam(req, 'id');
    const name = pathParam(req, 'node');
    const actor = principal(req);
    const updated = await db.$transaction(async (tx) => {
      const [node] = await tx.$queryRaw<Node[]>`SELECT * FROM nodes WHERE "connectionId" = ${connectionId} AND name = ${name} FOR NO KEY UPDATE`;
      if (!node) throw notFound('node');
      const held = await heldOn(tx, node.id);
      const wanted = { vcpus: body.vcpus ?? node.vcpus, memoryMiB: body.memoryMiB ?? node.memoryMiB, diskGiB: body.diskGiB ?? node.diskGiB };
      if (!fits(wanted, held)) {
        const short = (Object.keys(wanted) as (keyof Sizing)[]).filter((key) => wanted[key] < held[key]);
        throw new AppError('CONFLICT', `Servers on ${name} hold more than that: ${short.map((key) => `${key} ${held[key]}`).join(', ')}.`, {
          fields: Object.fromEntries(short.map((key) => [key, `below the ${held[key]} held by servers`])),
          held,
          requested: wanted,
        });
      }
      const result = await tx.node.update({ where: { id: node.id }, data: body });
      await audit(tx, actor.userId, 'node.updated', { connectionId, node: name, ...changesOf(node, body), held: { ...held } });
      return result;
    });
    send(res, adminNodeView(updated));
  });

  /** A node of the cluster joins the connection once the cluster lists it, and takes placements at once. */
  router.post('/connections/:id/nodes', async (req, res) => {
    const body = parseBody(nodeSpecSchema, req);
    const connectionId = pathParam(req, 'id');
    const actor = principal(req);
    const connection = await db.proxmoxConnection.findUnique({ where: { id: connectionId } });
    if (!connection) throw notFound('connection');
    await assertNodeInCluster(savedTarget(deps, connection), body.name);
    const node = await db
      .$transaction(async (tx) => {
        const created = await tx.node.create({ data: { id: newId('node'), connectionId, ...body } });
        await audit(tx, actor.userId, 'node.added', { connectionId, ...body });
        return created;
      })
      .catch(conflictOnDuplicate('node'));
    send(res, adminNodeView(node), {}, 201);
  });

  /**
   * A node leaves the connection only when nothing lives on it: no server (not deleted or failed)
   * placed there, no capacity held there or moving to it. Its row lock (FOR UPDATE) waits for the
   * placements under way and keeps new ones out. Released allocations and its templates go with it.
   */
  router.delete('/connections/:id/nodes/:node', async (req, res) => {
    const connectionId = pathParam(req, 'id');
    const name = pathParam(req, 'node');
    const actor = principal(req);
    await db.$transaction(async (tx) => {
      const [node] = await tx.$queryRaw<Node[]>`SELECT * FROM nodes WHERE "connectionId" = ${connectionId} AND name = ${name} FOR UPDATE`;
      if (!node) throw notFound('node');
      const servers = await tx.instance.count({ where: { connectionId, node: name, ...LIVE_INSTANCE } });
      const allocations = await tx.nodeAllocation.count({ where: { OR: [{ nodeId: node.id }, { targetNodeId: node.id }], state: { not: 'released' } } });
      if (servers > 0 || allocations > 0) {
        throw new AppError('NODE_IN_USE', `Servers still live on ${name}: drain it (draining: true) and migrate them away before removing it.`, { servers, allocations });
      }
      await tx.nodeAllocation.deleteMany({ where: { nodeId: node.id, state: 'released' } });
      const templates = await tx.imageTemplate.deleteMany({ where: { connectionId, node: name } });
      await tx.node.delete({ where: { id: node.id } });
      await audit(tx, actor.userId, 'node.removed', { connectionId, node: name, templatesRemoved: templates.count });
    });
    res.status(204).end();
  });

  /**
   * A connection's VMID range moves under the connection's row lock: it may not reach VMIDs
   * another connection to the same cluster uses, and may leave out free VMIDs only.
   */
  router.put('/connections/:id/vmid-range', async (req, res) => {
    const range = parseBody(vmidRangeSchema, req);
    const connectionId = pathParam(req, 'id');
    const actor = principal(req);
    const connection = await db.proxmoxConnection.findUnique({ where: { id: connectionId }, include: { nodes: true } });
    if (!connection) throw notFound('connection');
    await assertNoVmidOverlap(deps, await savedIdentity(deps, connection), range, connectionId);
    const updated = await db.$transaction(async (tx) => {
      const [current] = await tx.$queryRaw<ProxmoxConnection[]>`SELECT * FROM proxmox_connections WHERE id = ${connectionId} FOR UPDATE`;
      if (!current) throw notFound('connection');
      const { rowsRemoved } = await moveVmidRange(tx, connectionId, range);
      await audit(tx, actor.userId, 'connection.vmid_range_changed', {
        connectionId,
        before: { start: current.vmidStart, end: current.vmidEnd },
        after: range,
        freeRowsRemoved: rowsRemoved,
      });
      return tx.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId }, include: { nodes: true } });
    });
    send(res, adminConnectionView(updated));
  });

  // ---------- locations ----------

  router.post(
    '/locations',
    createHandler(
      createLocationSchema,
      ['location'],
      async (tx, body, actorUserId) => {
        const connection = await tx.proxmoxConnection.findUnique({ where: { id: body.connectionId }, select: { id: true } });
        const locationId = newId('loc');
        // Without the connection nothing is created: claimPools reports it along with any unknown pool.
        if (connection) {
          await tx.location.create({
            data: { id: locationId, name: body.name, connectionId: body.connectionId, snapshotsSupported: body.snapshotsSupported, backupStorage: body.backupStorage ?? null },
          });
        }
        const pools = await claimPools(tx, locationId, body.ipPools, 'ipPools', connection ? {} : { connectionId: 'no such connection' });
        if (!pools.some((p) => p.family === 4)) throw badReference({ ipPools: 'at least one IPv4 pool is required' });
        await audit(tx, actorUserId, 'location.created', { locationId, name: body.name });
        return tx.location.findUniqueOrThrow({ where: { id: locationId }, include: { ipPools: true } });
      },
      adminLocationView,
    ),
  );

  router.get('/locations', adminListHandler((page) => db.location.findMany({ ...page, include: { ipPools: true } }), adminLocationView));

  router.patch(
    '/locations/:id',
    updateHandler({
      schema: updateLocationSchema,
      duplicate: ['location'],
      lock: (tx, id) => tx.$queryRaw<Location[]>`SELECT * FROM locations WHERE id = ${id} FOR UPDATE`,
      noun: 'location',
      action: 'location.updated',
      subject: 'locationId',
      apply: async (tx, { id, fields: { addIpPools = [], ...fields }, archive }) => {
        await claimPools(tx, id, addIpPools, 'addIpPools');
        return tx.location.update({ where: { id }, data: { ...fields, ...archive }, include: { ipPools: true } });
      },
      view: adminLocationView,
    }),
  );

  // ---------- IP pools ----------

  router.post(
    '/ip-pools',
    createHandler(
      createIpPoolSchema,
      ['pool', 'cidr'],
      async (tx, body, actorUserId) => {
        const net = parseNetwork(body.cidr);
        if (!net) throw badReference({ cidr: 'a network in CIDR notation' });
        await assertNoPoolOverlap(tx, net);
        const created = await tx.ipPool.create({
          data: {
            id: newId('pool'),
            cidr: net.cidr,
            family: net.family,
            gateway: canonicalAddress(body.gateway),
            bridge: body.bridge,
            vlan: body.vlan ?? null,
            dns: body.dns.map(canonicalAddress),
          },
        });
        await audit(tx, actorUserId, 'ip_pool.created', { poolId: created.id, cidr: created.cidr });
        return created;
      },
      adminIpPoolView,
    ),
  );

  router.get('/ip-pools', adminListHandler((page) => db.ipPool.findMany(page), adminIpPoolView));

  /**
   * The network may change only while no address was ever handed out from the pool; a new
   * gateway may not be an address a server holds (a free one leaves circulation).
   */
  router.patch(
    '/ip-pools/:id',
    updateHandler({
      schema: updateIpPoolSchema,
      duplicate: ['pool', 'cidr'],
      lock: (tx, id) => tx.$queryRaw<IpPool[]>`SELECT * FROM ip_pools WHERE id = ${id} FOR UPDATE`,
      noun: 'IP pool',
      action: 'ip_pool.updated',
      subject: 'poolId',
      apply: async (tx, { id, current: pool, fields, archive }) => {
        const cidr = fields.cidr ?? pool.cidr;
        const gateway = fields.gateway ?? pool.gateway;
        const problems = ipPoolProblems({ cidr, gateway, family: pool.family === 6 ? 6 : 4 });
        if (problems.length > 0) throw badReference(Object.fromEntries(problems.map((p) => [p.field, p.message])));
        const net = parseNetwork(cidr) as Network;
        if (net.cidr !== pool.cidr) {
          // Creates take address rows with SKIP LOCKED and lock no pool: locking the rows waits for
          // any being taken. Free rows never handed out (added ahead of demand) go with the old network.
          await tx.$queryRaw`SELECT id FROM ip_addresses WHERE "poolId" = ${id} FOR UPDATE`;
          const addresses = await tx.ipAddress.count({ where: { poolId: id, OR: [{ state: { not: 'free' } }, { releasedAt: { not: null } }] } });
          if (addresses > 0) {
            throw new AppError('CONFLICT', `The network of a pool cannot change once addresses were handed out from it (${addresses}).`, { fields: { cidr: 'addresses were handed out' }, addresses });
          }
          await assertNoPoolOverlap(tx, net, id);
          await tx.ipAddress.deleteMany({ where: { poolId: id } });
        }
        const newGateway = canonicalAddress(gateway);
        if (newGateway !== pool.gateway) {
          const slot = await tx.ipAddress.findUnique({ where: { poolId_address: { poolId: id, address: newGateway } } });
          // Deleted only while still free: a create may be taking it right now.
          const freed = slot ? await tx.ipAddress.deleteMany({ where: { id: slot.id, state: 'free' } }) : null;
          if (freed?.count === 0) throw new AppError('CONFLICT', 'A server holds that address.', { fields: { gateway: 'held by a server' } });
        }
        return tx.ipPool.update({
          where: { id },
          data: {
            ...fields,
            cidr: net.cidr,
            gateway: newGateway,
            ...(fields.dns ? { dns: fields.dns.map(canonicalAddress) } : {}),
            ...archive,
          },
        });
      },
      view: adminIpPoolView,
    }),
  );

  return router;
}
