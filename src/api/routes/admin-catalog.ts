import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import { AppError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Image, ImageTemplate, IpPool, Location, Node, Plan, ProxmoxConnection } from '../../generated/prisma/client';
import type { Tx } from '../../db/client';
import { upsertReconcileSchedule } from '../../reconcile-schedules';
import type { ApiDeps } from '../app';
import { principal } from '../auth';
import { conflictOnDuplicate } from '../errors';
import type { ClusterIdentity } from '../../proxmox';
import { assertNoVmidOverlap, identifyCluster } from '../cluster-identity';
import { listHandler, parseBody, send } from '../http';
import {
  type adminConnectionSchema,
  type adminImageSchema,
  type adminIpPoolSchema,
  type adminLocationSchema,
  type adminPlanSchema,
  canonicalAddress,
  createConnectionRequestSchema,
  createImageSchema,
  createIpPoolSchema,
  createLocationSchema,
  createPlanSchema,
  networksOverlap,
  parseNetwork,
} from '../schemas/catalog';
import { imageView, planView } from './catalog';

// ---------- admin views: provider coordinates included, secrets never ----------

export const adminPlanView = (plan: Plan): z.infer<typeof adminPlanSchema> => ({
  ...planView(plan),
  defaultUsername: plan.defaultUsername,
  createdAt: plan.createdAt.toISOString(),
});

export const adminImageView = (image: Image & { templates: ImageTemplate[] }): z.infer<typeof adminImageSchema> => ({
  ...imageView(image),
  templates: image.templates
    .map((t) => ({ id: t.id, connectionId: t.connectionId, node: t.node, templateVmid: t.templateVmid }))
    .sort((a, b) => a.connectionId.localeCompare(b.connectionId) || a.node.localeCompare(b.node)),
  createdAt: image.createdAt.toISOString(),
});

export const adminConnectionView = (connection: ProxmoxConnection & { nodes: Node[] }): z.infer<typeof adminConnectionSchema> => ({
  id: connection.id,
  name: connection.name,
  url: connection.url,
  tokenId: connection.tokenId,
  hasTokenSecret: connection.tokenSecretCipher.length > 0,
  clusterName: connection.clusterName,
  vmidRange: { start: connection.vmidStart, end: connection.vmidEnd },
  nodes: connection.nodes
    .map((n) => ({ id: n.id, name: n.name, vcpus: n.vcpus, memoryMiB: n.memoryMiB, diskGiB: n.diskGiB, enabled: n.enabled }))
    .sort((a, b) => a.name.localeCompare(b.name)),
  storage: connection.storage,
  caCert: connection.caCert,
  insecureTls: connection.insecureTls,
  plaintextLab: connection.plaintextLab,
  createdAt: connection.createdAt.toISOString(),
});

export const adminIpPoolView = (pool: IpPool): z.infer<typeof adminIpPoolSchema> => ({
  id: pool.id,
  cidr: pool.cidr,
  family: pool.family === 6 ? (6 as const) : (4 as const),
  gateway: pool.gateway,
  bridge: pool.bridge,
  vlan: pool.vlan,
  dns: pool.dns,
  locationId: pool.locationId,
  createdAt: pool.createdAt.toISOString(),
});

export const adminLocationView = (location: Location & { ipPools: IpPool[] }): z.infer<typeof adminLocationSchema> => ({
  id: location.id,
  name: location.name,
  connectionId: location.connectionId,
  ipPools: location.ipPools.map(adminIpPoolView).sort((a, b) => a.family - b.family || a.cidr.localeCompare(b.cidr)),
  createdAt: location.createdAt.toISOString(),
});

// ---------- helpers ----------

/** A reference in the body to an object that does not exist is the caller's input error. */
const badReference = (fields: Record<string, string>) => new AppError('INVALID_INPUT', 'The request body is invalid.', { fields });

async function audit(tx: Tx, actorUserId: string, action: string, details: Record<string, string | number>) {
  await tx.auditEvent.create({ data: { actorUserId, action, details } });
}

/**
 * The catalog: plans, images and their templates, Proxmox VE connections and nodes, locations
 * and IP pools. Mounted under /v1/admin behind requireAdmin.
 *
 * Rules: a duplicate name (or CIDR) is 409 CONFLICT; a body reference to a missing object is
 * 400 INVALID_INPUT naming the field.
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

  router.get('/plans', listHandler((page) => db.plan.findMany(page), adminPlanView));

  // ---------- images ----------

  router.post(
    '/images',
    createHandler(
      createImageSchema,
      ['image'],
      async (tx, body, actorUserId) => {
        const connectionIds = [...new Set(body.templates.map((t) => t.connectionId))];
        const nodes = await tx.node.findMany({ where: { connectionId: { in: connectionIds } }, select: { connectionId: true, name: true } });
        const known = new Set(nodes.map((n) => `${n.connectionId}/${n.name}`));
        const knownConnections = new Set(nodes.map((n) => n.connectionId));
        const fields: Record<string, string> = {};
        body.templates.forEach((t, i) => {
          if (!knownConnections.has(t.connectionId)) fields[`templates.${i}.connectionId`] = 'no such connection';
          else if (!known.has(`${t.connectionId}/${t.node}`)) fields[`templates.${i}.node`] = 'no such node on this connection';
        });
        if (Object.keys(fields).length > 0) throw badReference(fields);
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

  router.get('/images', listHandler((page) => db.image.findMany({ ...page, include: { templates: true } }), adminImageView));

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
          const identity = await identifyCluster({ ...body, insecureTls: body.insecureTls ?? deps.config.PROXMOX_INSECURE_TLS_DEFAULT });
          await assertNoVmidOverlap(deps, identity, body.vmidRange);
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

  router.get('/connections', listHandler((page) => db.proxmoxConnection.findMany({ ...page, include: { nodes: true } }), adminConnectionView));

  // ---------- locations ----------

  router.post(
    '/locations',
    createHandler(
      createLocationSchema,
      ['location'],
      async (tx, body, actorUserId) => {
        const fields: Record<string, string> = {};
        if (!(await tx.proxmoxConnection.findUnique({ where: { id: body.connectionId }, select: { id: true } }))) fields.connectionId = 'no such connection';
        const pools = await tx.ipPool.findMany({ where: { id: { in: body.ipPools } } });
        const byId = new Map(pools.map((p) => [p.id, p]));
        body.ipPools.forEach((poolId, i) => {
          if (!byId.has(poolId)) fields[`ipPools.${i}`] = 'no such IP pool';
        });
        if (Object.keys(fields).length > 0) throw badReference(fields);
        if (!pools.some((p) => p.family === 4)) throw badReference({ ipPools: 'at least one IPv4 pool is required' });
        const locationId = newId('loc');
        await tx.location.create({ data: { id: locationId, name: body.name, connectionId: body.connectionId } });
        // Claim the pools only if no other location holds them; a concurrent claim makes the count short.
        const claimed = await tx.ipPool.updateMany({ where: { id: { in: body.ipPools }, locationId: null }, data: { locationId } });
        if (claimed.count !== body.ipPools.length) {
          const held = await tx.ipPool.findMany({ where: { id: { in: body.ipPools }, NOT: { locationId: locationId } }, select: { id: true } });
          const heldIds = new Set(held.map((p) => p.id));
          const taken = body.ipPools.flatMap((poolId, i) => (heldIds.has(poolId) ? [[`ipPools.${i}`, 'already in another location'] as const] : []));
          throw new AppError('CONFLICT', 'An IP pool already belongs to another location.', { fields: Object.fromEntries(taken) });
        }
        await audit(tx, actorUserId, 'location.created', { locationId, name: body.name });
        return tx.location.findUniqueOrThrow({ where: { id: locationId }, include: { ipPools: true } });
      },
      adminLocationView,
    ),
  );

  router.get('/locations', listHandler((page) => db.location.findMany({ ...page, include: { ipPools: true } }), adminLocationView));

  // ---------- IP pools ----------

  router.post(
    '/ip-pools',
    createHandler(
      createIpPoolSchema,
      ['pool', 'cidr'],
      async (tx, body, actorUserId) => {
        const net = parseNetwork(body.cidr);
        if (!net) throw badReference({ cidr: 'a network in CIDR notation' });
        // Serialize pool creation so two overlapping networks cannot both pass the check below.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('ip_pools.create'))`;
        const existing = await tx.ipPool.findMany({ where: { family: net.family }, select: { id: true, cidr: true } });
        const overlapping = existing.find((other) => {
          const otherNet = parseNetwork(other.cidr);
          return otherNet !== undefined && networksOverlap(net, otherNet);
        });
        if (overlapping) {
          throw new AppError('CONFLICT', `The network overlaps the pool ${overlapping.cidr}.`, { fields: { cidr: 'overlaps an existing pool' }, poolId: overlapping.id });
        }
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

  router.get('/ip-pools', listHandler((page) => db.ipPool.findMany(page), adminIpPoolView));

  return router;
}
