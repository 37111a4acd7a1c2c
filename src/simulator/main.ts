/**
 * Entry point: `npm run simulator`.
 * Environment: SIM_PORT (8006), SIM_HOST (127.0.0.1), SIM_TOKEN (USER@REALM!TOKENID=SECRET),
 * SIM_TASK_MS (50), SIM_TASK_MS_BY_TYPE (`qmclone=5000,qmstart=2000`: per task type), SIM_PVE_VERSION (9.2.3 or 8.4.5), SIM_AUTH_FAIL_DELAY_MS (0), SIM_CLUSTER_NAME (pvecp-sim),
 * PVE_API_SCHEMA_DIR (directory of pve-<version>.json).
 */
import pino from 'pino';
import { DEFAULT_PVE_VERSION, isPveVersion } from './schema';
import { taskMsByTypeSchema } from './control-api';
import { DEFAULT_SIM_TOKEN, DEFAULT_TASK_MS, createSimulator, parseToken } from './server';
import { LEAST_PRIVILEGE_SIM_TOKEN } from './spec';

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/** `qmclone=5000,qmstart=2000` → `{ qmclone: 5000, qmstart: 2000 }`. */
function taskMsByTypeEnv(name: string): Record<string, number> {
  const raw = process.env[name] ?? '';
  const pairs = raw.split(',').filter(Boolean).map((pair) => pair.split('='));
  const parsed = taskMsByTypeSchema.safeParse(Object.fromEntries(pairs.map(([type, ms]) => [type?.trim(), Number(ms)])));
  if (!parsed.success || pairs.some((pair) => pair.length !== 2)) throw new Error(`${name} must look like qmclone=5000,qmstart=2000`);
  return parsed.data;
}

async function main(): Promise<void> {
  const log = pino({ name: 'pve-simulator' });
  const version = process.env.SIM_PVE_VERSION ?? DEFAULT_PVE_VERSION;
  if (!isPveVersion(version)) throw new Error('SIM_PVE_VERSION must be 8.4.5 or 9.2.3');
  const token = process.env.SIM_TOKEN || DEFAULT_SIM_TOKEN;
  const { tokenId } = parseToken(token);
  const sim = createSimulator({
    token,
    pveVersion: version,
    taskMs: intEnv('SIM_TASK_MS', DEFAULT_TASK_MS),
    taskMsByType: taskMsByTypeEnv('SIM_TASK_MS_BY_TYPE'),
    authFailDelayMs: intEnv('SIM_AUTH_FAIL_DELAY_MS', 0),
    ...(process.env.SIM_CLUSTER_NAME ? { clusterName: process.env.SIM_CLUSTER_NAME } : {}),
  });
  const host = process.env.SIM_HOST || '127.0.0.1';
  const server = await sim.listen(intEnv('SIM_PORT', 8006), host);
  log.info(
    {
      url: server.url,
      pveVersion: sim.schema.version,
      clusterName: sim.state.settings.clusterName,
      tokenId,
      defaultToken: token === DEFAULT_SIM_TOKEN,
      leastPrivilegeTokenId: parseToken(LEAST_PRIVILEGE_SIM_TOKEN).tokenId,
      nodes: [...sim.state.nodes.keys()],
      templates: [...sim.state.guests.values()].map((g) => `${g.node}/${g.vmid}/${String(g.config.name)}`),
    },
    'Proxmox VE simulator listening',
  );
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'Proxmox VE simulator stopping');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 60, msg: e instanceof Error ? e.message : String(e) })}\n`);
  process.exit(1);
});
