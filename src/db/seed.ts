import { newId } from '../security/ids';
import type { LoginMethod } from '../generated/prisma/enums';
import { generateApiToken, generatePassword, hashToken, type SecretBox } from '../security/secrets';
import { hashUserPassword } from '../security/user-passwords';
import type { Db } from './client';
import { isUniqueViolation } from './errors';
import { recordAudit } from './audit';
import { createDefaultProject } from './projects';

/** The demo cluster's nodes and what we may allocate on each. */
export const DEMO_NODES = ['pve1', 'pve2', 'pve3'] as const;
export type DemoNode = (typeof DEMO_NODES)[number];
export const DEMO_NODE_CAPACITY = { vcpus: 32, memoryMiB: 65_536, diskGiB: 1_000 } as const;

/**
 * Template VMIDs of the demo cluster, per template and node. VMIDs are unique across a Proxmox
 * VE cluster, so each node's copy of a template has its own.
 */
export const DEMO_TEMPLATE_VMIDS: Record<'debian-12' | 'ubuntu-24.04' | 'rocky-9', Record<DemoNode, number>> = {
  'debian-12': { pve1: 9000, pve2: 9010, pve3: 9020 },
  'ubuntu-24.04': { pve1: 9001, pve2: 9011, pve3: 9021 },
  'rocky-9': { pve1: 9002, pve2: 9012, pve3: 9022 },
};

export const DEMO_VMID_RANGE = { start: 1000, end: 8999 } as const;

export const DEMO_PLANS = [
  { name: 'small', vcpus: 1, memoryMiB: 1024, diskGiB: 10, defaultUsername: null, snapshotLimit: 3, backupLimit: 3 },
  { name: 'medium', vcpus: 2, memoryMiB: 2048, diskGiB: 20, defaultUsername: 'cloud', snapshotLimit: 5, backupLimit: 7 },
  { name: 'large', vcpus: 4, memoryMiB: 8192, diskGiB: 40, defaultUsername: null, snapshotLimit: 10, backupLimit: 14 },
] as const;

interface DemoImage {
  name: string;
  os: string;
  version: string;
  loginMethods: LoginMethod[];
  defaultUsername: string | null;
  template: keyof typeof DEMO_TEMPLATE_VMIDS;
}

export const DEMO_IMAGES: readonly DemoImage[] = [
  { name: 'debian-12', os: 'debian', version: '12', loginMethods: ['password', 'ssh'], defaultUsername: 'debian', template: 'debian-12' },
  { name: 'ubuntu-24.04', os: 'ubuntu', version: '24.04', loginMethods: ['password', 'ssh'], defaultUsername: 'ubuntu', template: 'ubuntu-24.04' },
  { name: 'rocky-9', os: 'rocky', version: '9', loginMethods: ['password', 'ssh'], defaultUsername: 'rocky', template: 'rocky-9' },
  // Key-only login: creating an instance without an SSH key is refused.
  { name: 'debian-12-ssh-only', os: 'debian', version: '12', loginMethods: ['ssh'], defaultUsername: 'debian', template: 'debian-12' },
  // No login method we can configure: creating an instance from it is refused.
  { name: 'appliance-no-login', os: 'appliance', version: '1', loginMethods: [], defaultUsername: null, template: 'debian-12' },
];

export const DEMO_POOLS = [
  { cidr: '198.51.100.0/24', family: 4, gateway: '198.51.100.1', bridge: 'vmbr0', dns: ['1.1.1.1', '9.9.9.9'] },
  { cidr: '2001:db8:100::/64', family: 6, gateway: '2001:db8:100::1', bridge: 'vmbr0', dns: ['2606:4700:4700::1111', '2620:fe::fe'] },
] as const;

export const DEMO_TENANT = { name: 'demo', quota: { instances: 20, vcpus: 40, memoryMiB: 65_536, diskGiB: 400 } } as const;
export const DEMO_CUSTOMER_EMAIL = 'demo@example.com';
/** The demo operator: an administrator who signs in to the console (the bootstrap admin has a token only). */
export const DEMO_OPERATOR_EMAIL = 'operator@example.com';
export const DEMO_CONNECTION_NAME = 'demo-cluster';
export const DEMO_LOCATION_NAME = 'demo';

export interface DemoProxmox {
  proxmoxUrl: string;
  /** `USER@REALM!TOKENID` */
  tokenId: string;
  tokenSecret: string;
  storage?: string;
  insecureTls?: boolean;
  /** An http:// endpoint such as the simulator. */
  plaintextLab?: boolean;
  /** A snippets storage mounted here, for customers' userData. */
  snippets?: { storage: string; directory: string };
}

export type SeedResult =
  | { seeded: false }
  | {
      seeded: true;
      /** The demo customer's bearer token: shown once, only its digest is stored. */
      customerToken: string;
      tenantId: string;
      userId: string;
      connectionId: string;
      locationId: string;
      /** Plan ids by name (small, medium, large). */
      plans: Record<string, string>;
      /** Image ids by name. */
      images: Record<string, string>;
      /** Console sign-ins of the demo customer and operator, when asked for (`withLogins`); shown once, only scrypt hashes are stored. */
      logins?: DemoLogin[];
    };

export interface DemoLogin {
  email: string;
  password: string;
  role: 'customer' | 'admin';
}

/**
 * A demo catalog against the simulator's demo cluster, plus a demo tenant and customer with a
 * fresh token (and, with `withLogins`, console passwords for the customer and a demo operator).
 * Does nothing when any plan, image or connection exists already (and when another process
 * seeds at the same moment).
 */
export async function seedDemoCatalog(db: Db, secrets: SecretBox, proxmox: DemoProxmox, options: { withLogins?: boolean } = {}): Promise<SeedResult> {
  const [plans, images, connections] = await Promise.all([db.plan.count(), db.image.count(), db.proxmoxConnection.count()]);
  if (plans + images + connections > 0) return { seeded: false };

  const connectionId = newId('conn');
  const locationId = newId('loc');
  const tenantId = newId('ten');
  const userId = newId('usr');
  const customerToken = generateApiToken();
  const planIds = Object.fromEntries(DEMO_PLANS.map((plan) => [plan.name, newId('plan')]));
  const imageIds = Object.fromEntries(DEMO_IMAGES.map((image) => [image.name, newId('img')]));
  const logins: DemoLogin[] | undefined = options.withLogins
    ? [
        { email: DEMO_CUSTOMER_EMAIL, password: generatePassword(), role: 'customer' },
        { email: DEMO_OPERATOR_EMAIL, password: generatePassword(), role: 'admin' },
      ]
    : undefined;
  const [customerHash, operatorHash] = logins ? await Promise.all(logins.map((login) => hashUserPassword(login.password))) : [];

  try {
    await db.$transaction(async (tx) => {
      await tx.proxmoxConnection.create({
        data: {
          id: connectionId,
          name: DEMO_CONNECTION_NAME,
          url: proxmox.proxmoxUrl.replace(/\/+$/, ''),
          tokenId: proxmox.tokenId,
          tokenSecretCipher: secrets.seal(proxmox.tokenSecret, connectionId),
          storage: proxmox.storage ?? 'local-lvm',
          insecureTls: proxmox.insecureTls ?? false,
          plaintextLab: proxmox.plaintextLab ?? false,
          ...(proxmox.snippets ? { snippetsStorage: proxmox.snippets.storage, snippetsDirectory: proxmox.snippets.directory } : {}),
          vmidStart: DEMO_VMID_RANGE.start,
          vmidEnd: DEMO_VMID_RANGE.end,
          nodes: { create: DEMO_NODES.map((name) => ({ id: newId('node'), name, ...DEMO_NODE_CAPACITY })) },
        },
      });
      for (const plan of DEMO_PLANS) {
        await tx.plan.create({ data: { id: planIds[plan.name] as string, ...plan } });
      }
      for (const image of DEMO_IMAGES) {
        const vmids = DEMO_TEMPLATE_VMIDS[image.template];
        await tx.image.create({
          data: {
            id: imageIds[image.name] as string,
            name: image.name,
            os: image.os,
            version: image.version,
            loginMethods: image.loginMethods,
            defaultUsername: image.defaultUsername,
            rootAllowed: false,
            templates: { create: DEMO_NODES.map((node) => ({ id: newId('tpl'), connectionId, node, templateVmid: vmids[node] })) },
          },
        });
      }
      await tx.location.create({
        data: {
          id: locationId,
          name: DEMO_LOCATION_NAME,
          connectionId,
          // the demo cluster's directory storage
          backupStorage: 'local',
          ipPools: { create: DEMO_POOLS.map((pool) => ({ id: newId('pool'), ...pool, dns: [...pool.dns] })) },
        },
      });
      const { quota } = DEMO_TENANT;
      await tx.tenant.create({
        data: {
          id: tenantId,
          name: DEMO_TENANT.name,
          quotaInstances: quota.instances,
          quotaVcpus: quota.vcpus,
          quotaMemoryMiB: quota.memoryMiB,
          quotaDiskGiB: quota.diskGiB,
        },
      });
      await createDefaultProject(tx, tenantId);
      await tx.user.create({ data: { id: userId, tenantId, email: DEMO_CUSTOMER_EMAIL, role: 'customer', tenantRole: 'owner', passwordHash: customerHash ?? null } });
      if (operatorHash) await tx.user.create({ data: { id: newId('usr'), tenantId: null, email: DEMO_OPERATOR_EMAIL, role: 'admin', passwordHash: operatorHash } });
      await tx.apiToken.create({ data: { id: newId('tok'), userId, tokenHash: hashToken(customerToken) } });
      await recordAudit(tx, { action: 'catalog.seeded', tenantId, details: { connectionId, locationId } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { seeded: false };
    throw error;
  }

  return { seeded: true, customerToken, tenantId, userId, connectionId, locationId, plans: planIds, images: imageIds, ...(logins ? { logins } : {}) };
}
