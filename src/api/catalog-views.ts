import type { z } from 'zod';
import { refreshEvery } from '../domain/image-refresh';
import type { Image, IpPool, Location, Node, Plan, ProxmoxConnection } from '../generated/prisma/client';
import { consoleUserOf, snippetsOf } from '../services/catalog/connections';
import type { ConnectionHealth, ConnectionWarning } from '../services/catalog/connection-health';
import type { AdminImageRow } from '../services/catalog/images';
import type { adminConnectionDetailSchema, adminConnectionSchema } from './schemas/connections';
import type { adminImageSchema, imageSchema } from './schemas/images';
import type { adminIpPoolSchema } from './schemas/ip-pools';
import type { adminLocationSchema, locationSchema } from './schemas/locations';
import type { nodeSchema } from './schemas/nodes';
import type { adminPlanSchema, planSchema } from './schemas/plans';

// Customer views: what to choose from, never where it lives (no nodes, VMIDs, connections,
// storage, bridges, VLANs or URLs).

export const planView = (plan: Plan): z.infer<typeof planSchema> => ({
  id: plan.id,
  name: plan.name,
  vcpus: plan.vcpus,
  memoryMiB: plan.memoryMiB,
  diskGiB: plan.diskGiB,
  snapshotLimit: plan.snapshotLimit,
  backupLimit: plan.backupLimit,
  trafficAllowanceGiB: plan.trafficAllowanceGiB,
  trafficCounted: plan.trafficCounted === 'in_out' ? 'in+out' : plan.trafficCounted,
  trafficOverage: plan.trafficOverage,
  throttleMbps: plan.throttleMbps,
  billingPeriod: plan.billingPeriod,
});

export const imageView = (image: Image): z.infer<typeof imageSchema> => ({
  id: image.id,
  name: image.name,
  os: image.os,
  version: image.version,
  loginMethods: image.loginMethods,
  defaultUsername: image.defaultUsername,
  rootAllowed: image.rootAllowed,
});

export const locationView = (location: Location & { ipPools: Pick<IpPool, 'family'>[] }): z.infer<typeof locationSchema> => ({
  id: location.id,
  name: location.name,
  ipv4: location.ipPools.some((pool) => pool.family === 4),
  ipv6: location.ipPools.some((pool) => pool.family === 6),
  snapshots: location.snapshotsSupported,
  backups: location.backupStorage !== null,
});

// Admin views: provider coordinates included, secrets never.

const isoOrNull = (at: Date | null) => at?.toISOString() ?? null;

export const adminPlanView = (plan: Plan): z.infer<typeof adminPlanSchema> => ({
  ...planView(plan),
  defaultUsername: plan.defaultUsername,
  createdAt: plan.createdAt.toISOString(),
  archivedAt: isoOrNull(plan.archivedAt),
});

export const adminImageView = (image: AdminImageRow): z.infer<typeof adminImageSchema> => ({
  ...imageView(image),
  templates: image.templates
    .map((t) => ({ id: t.id, connectionId: t.connectionId, node: t.node, templateVmid: t.templateVmid }))
    .sort((a, b) => a.connectionId.localeCompare(b.connectionId) || a.node.localeCompare(b.node)),
  source:
    image.sourceUrl && image.checksumAlgorithm
      ? { url: image.sourceUrl, checksumUrl: image.checksumUrl, checksumAlgorithm: image.checksumAlgorithm as 'sha256' | 'sha512', storage: image.importStorage, locationIds: image.locationIds }
      : null,
  refreshSchedule: image.refreshIntervalSeconds === null ? null : { every: refreshEvery(image.refreshIntervalSeconds) },
  versions: image.versions.map((v) => ({ number: v.number, checksum: v.checksum, createdAt: v.createdAt.toISOString(), retiredAt: isoOrNull(v.retiredAt) })),
  builds: image.versions
    .flatMap((v) =>
      v.builds.map((b) => ({
        connectionId: b.connectionId,
        node: b.node,
        version: v.number,
        state: b.state,
        storage: b.storage,
        templateVmid: b.templateVmid,
        progress: b.state === 'ready' ? 100 : b.downloadKey ? (image.progress.get(b.downloadKey) ?? null) : null,
        errorCode: b.errorCode,
        errorMessage: b.errorMessage,
        retiredAt: isoOrNull(b.retiredAt),
        updatedAt: b.updatedAt.toISOString(),
      })),
    )
    .sort((a, b) => b.version - a.version || a.connectionId.localeCompare(b.connectionId) || a.node.localeCompare(b.node)),
  createdAt: image.createdAt.toISOString(),
  archivedAt: isoOrNull(image.archivedAt),
});

/** A connection as listed; the answer to a save also carries its `warnings`. */
export const adminConnectionView = (connection: ProxmoxConnection & { nodes: Node[]; warnings?: ConnectionWarning[] }): z.infer<typeof adminConnectionSchema> => ({
  id: connection.id,
  name: connection.name,
  url: connection.url,
  tokenId: connection.tokenId,
  hasTokenSecret: connection.tokenSecretCipher.length > 0,
  clusterName: connection.clusterName,
  vmidRange: { start: connection.vmidStart, end: connection.vmidEnd },
  nodes: connection.nodes.map(adminNodeView).sort((a, b) => a.name.localeCompare(b.name)),
  storage: connection.storage,
  caCert: connection.caCert,
  insecureTls: connection.insecureTls,
  plaintextLab: connection.plaintextLab,
  snippets: snippetsOf(connection),
  consoleUser: consoleUserOf(connection),
  createdAt: connection.createdAt.toISOString(),
  archivedAt: isoOrNull(connection.archivedAt),
  ...(connection.warnings ? { warnings: connection.warnings } : {}),
});

export const adminConnectionDetailView = (connection: ProxmoxConnection & { nodes: Node[] }, health: ConnectionHealth): z.infer<typeof adminConnectionDetailSchema> => ({
  ...adminConnectionView(connection),
  health: { ...health, checkedAt: health.checkedAt.toISOString() },
});

export const adminNodeView = (n: Node): z.infer<typeof nodeSchema> => ({
  id: n.id,
  name: n.name,
  vcpus: n.vcpus,
  memoryMiB: n.memoryMiB,
  diskGiB: n.diskGiB,
  enabled: n.enabled,
  draining: n.draining,
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
  archivedAt: isoOrNull(pool.archivedAt),
});

export const adminLocationView = (location: Location & { ipPools: IpPool[] }): z.infer<typeof adminLocationSchema> => ({
  id: location.id,
  name: location.name,
  connectionId: location.connectionId,
  ipPools: location.ipPools.map(adminIpPoolView).sort((a, b) => a.family - b.family || a.cidr.localeCompare(b.cidr)),
  snapshotsSupported: location.snapshotsSupported,
  backupStorage: location.backupStorage,
  isoStorage: location.isoStorage,
  isoStorageShared: location.isoStorageShared,
  createdAt: location.createdAt.toISOString(),
  archivedAt: isoOrNull(location.archivedAt),
});
