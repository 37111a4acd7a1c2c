import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Instance, paths, Task } from '../../clients/typescript/index';
import { guestsOf, startStack, type CreateInstanceRequest, type Stack, type WorkerProcess } from './stack';

/**
 * The stack of the enclosing `describe`: started before its tests and closed after them, with
 * `afterEachTest` run after every test. Use it inside tests and hooks (it stands for the stack
 * started by then).
 */
export function suiteStack(options?: Parameters<typeof startStack>[0], afterEachTest?: (stack: Stack) => Promise<void>): Stack {
  let started: Stack | undefined;
  const current = (): Stack => {
    if (!started) throw new Error('the suite stack is not started yet (use it inside tests and hooks)');
    return started;
  };
  beforeAll(async () => {
    started = await startStack(options);
  });
  if (afterEachTest) afterEach(() => afterEachTest(current()));
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as Stack, { get: (_target, key) => Reflect.get(current(), key) });
}

/** A server created through the API and waited for until it runs. */
export async function runningServer(stack: Stack, body: Partial<CreateInstanceRequest> = {}, timeoutMs?: number): Promise<string> {
  const created = await stack.create({ hostname: 'ops-1', ...body });
  expect(created.status).toBe(202);
  const id = created.body.data.id;
  const ready = await stack.waitForStatus(id, ['running', 'failed', 'rollback_failed'], timeoutMs);
  expect(ready.status).toBe('running');
  return id;
}

/** A lifecycle call as the stack's customer (or with `token`), untyped: for refusals and malformed bodies (runOperation is the typed way). */
export function operate(stack: Stack, id: string, operation: string, body?: unknown, token = stack.customer.token) {
  if (operation === 'delete') return stack.api.request('DELETE', `/v1/instances/${id}`, { token });
  if (operation === 'migrate') return stack.api.request('POST', `/v1/admin/instances/${id}/migrate`, { token: stack.api.adminToken, body });
  return stack.api.request('POST', `/v1/instances/${id}/${operation}`, { token, body: body ?? {} });
}

/** The instance as its customer (or the holder of `token`) reads it. */
export async function readInstance(stack: Stack, id: string, token = stack.customer.token): Promise<Instance> {
  const { data, error, response } = await stack.api.client(token).GET('/v1/instances/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`read ${id}: ${response.status} ${JSON.stringify(error)}`);
  return data.data;
}

/** Polls a task until it has ended. */
export async function taskEnd(stack: Stack, taskId: string, timeoutMs = 30_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  let last: Task | undefined;
  while (Date.now() < deadline) {
    last = (await stack.adminClient.GET('/v1/tasks/{id}', { params: { path: { id: taskId } } })).data?.data;
    if (last?.status === 'succeeded' || last?.status === 'failed') return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} did not end; last: ${JSON.stringify(last)}`);
}

type JsonBody<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
export type ResizeBody = JsonBody<'/v1/instances/{id}/resize', 'post'>;
export type RebuildBody = JsonBody<'/v1/instances/{id}/rebuild', 'post'>;
export type MigrateBody = JsonBody<'/v1/admin/instances/{id}/migrate', 'post'>;
type BodylessOperation = 'start' | 'stop' | 'shutdown' | 'reboot' | 'delete';

/** An accepted operation and how it ended. */
export interface OperationOutcome {
  accepted: { data: Instance; meta: { taskId: string | null } };
  task: Task;
  /** The instance afterwards, as an admin reads it. */
  instance: Instance;
}

/** Requests one operation through the typed client (migrate as the admin, the others as the customer). */
function requestOperation(stack: Stack, id: string, operation: BodylessOperation | 'resize' | 'rebuild' | 'migrate', body: unknown) {
  const params = { path: { id } };
  switch (operation) {
    case 'delete':
      return stack.client.DELETE('/v1/instances/{id}', { params });
    case 'resize':
      return stack.client.POST('/v1/instances/{id}/resize', { params, body: body as ResizeBody });
    case 'rebuild':
      return stack.client.POST('/v1/instances/{id}/rebuild', { params, body: body as RebuildBody });
    case 'migrate':
      return stack.adminClient.POST('/v1/admin/instances/{id}/migrate', { params, body: body as MigrateBody });
    default:
      return stack.client.POST(`/v1/instances/{id}/${operation}`, { params });
  }
}

/** Runs one operation to its end through the typed client: 202, then the task's outcome and the instance afterwards. */
export async function runOperation(stack: Stack, id: string, operation: BodylessOperation): Promise<OperationOutcome>;
export async function runOperation(stack: Stack, id: string, operation: 'resize', body: ResizeBody): Promise<OperationOutcome>;
export async function runOperation(stack: Stack, id: string, operation: 'rebuild', body: RebuildBody): Promise<OperationOutcome>;
export async function runOperation(stack: Stack, id: string, operation: 'migrate', body: MigrateBody): Promise<OperationOutcome>;
export async function runOperation(stack: Stack, id: string, operation: BodylessOperation | 'resize' | 'rebuild' | 'migrate', body?: unknown): Promise<OperationOutcome> {
  const { data, error, response } = await requestOperation(stack, id, operation, body);
  if (response.status !== 202 || !data?.meta.taskId) throw new Error(`${operation}: expected 202, got ${response.status}: ${JSON.stringify(error ?? data)}`);
  const task = await taskEnd(stack, data.meta.taskId);
  const instance = await readInstance(stack, id, stack.api.adminToken);
  return { accepted: data, task, instance };
}

/** The server-sent events of the instance's current task, read to the end through the typed client. */
export async function streamedEvents(stack: Stack, id: string) {
  const { data, response } = await stack.client.GET('/v1/instances/{id}/events', { params: { path: { id } }, parseAs: 'text' });
  if (data === undefined) throw new Error(`events of ${id}: ${response.status}`);
  const blocks = data.split('\n\n').filter((block) => block.includes('data: '));
  const steps = blocks.filter((b) => !b.includes('event: close')).map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)) as { step: string; status: string; message: string });
  return { contentType: response.headers.get('content-type'), steps, closed: data.trimEnd().split('\n\n').pop()?.includes('event: close') ?? false };
}

/** The simulator's guest of an instance. */
export async function guestOf(stack: Stack, id: string) {
  return guestsOf(await stack.sim.state(), id)[0];
}

/**
 * Gives a running server a past: its guest up for `seconds` already (its usage history reaches
 * back that far) on a VMID the server has held as long.
 */
export async function serverUpFor(stack: Stack, id: string, seconds: number): Promise<void> {
  await stack.sim.setGuestUptime((await guestOf(stack, id))!.vmid, seconds);
  await stack.api.db.instance.update({ where: { id }, data: { vmidSince: new Date(Date.now() - seconds * 1000) } });
}

/**
 * Waits until the task's provider call of `kind` has its UPID recorded, then kills `worker` (as a
 * crash would) and answers the worker started in its place.
 */
export async function crashWorkerWhilePolling(stack: Stack, worker: WorkerProcess, taskId: string, kind: string): Promise<WorkerProcess> {
  await expect
    .poll(async () => (await stack.api.db.providerCall.findUnique({ where: { taskId_kind: { taskId, kind } } }))?.upid ?? null, { timeout: 30_000, interval: 25 })
    .not.toBeNull();
  await worker.kill();
  return stack.spawnWorkerProcess();
}

/** How many times a Proxmox call was made, e.g. `POST /nodes/{node}/qemu/{vmid}/status/start`. */
export async function callCount(stack: Stack, call: string): Promise<number> {
  return (await stack.sim.state()).calls[call] ?? 0;
}

/** The tenant's usage as operators see it. */
export async function usage(stack: Stack, tenantId = stack.customer.tenantId) {
  const res = await stack.api.request('GET', `/v1/admin/tenants/${tenantId}`, { token: stack.api.adminToken });
  // The quota's part of it: what servers hold (backups are counted beside it).
  const { instances, vcpus, memoryMiB, diskGiB } = res.body.data.usage as { instances: number; vcpus: number; memoryMiB: number; diskGiB: number };
  return { instances, vcpus, memoryMiB, diskGiB };
}

/** Live (not released) capacity per node name, from the database. */
export async function liveAllocations(stack: Stack, instanceId: string) {
  const rows = await stack.api.db.nodeAllocation.findMany({ where: { instanceId }, include: { node: true, targetNode: true } });
  return rows.map((r) => ({ node: r.node.name, target: r.targetNode?.name ?? null, state: r.state, vcpus: r.vcpus, memoryMiB: r.memoryMiB, diskGiB: r.diskGiB }));
}

export const Q = '/nodes/{node}/qemu/{vmid}';

/** How long the simulator's tasks run (ms), for every call from now on. */
export async function setTaskMs(stack: Stack, taskMs: number): Promise<void> {
  const res = await fetch(`${stack.sim.url}/_sim/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskMs }) });
  expect(res.ok).toBe(true);
}

/** What a server that was created, stopped, started and deleted tells in its event feed, oldest first. */
export const CREATE_STOP_START_DELETE_EVENTS = [
  'instance.created',
  'instance.scheduled',
  'instance.running',
  'instance.stopping',
  'instance.stopped',
  'instance.starting',
  'instance.running',
  'instance.deleting',
  'instance.deleted',
];

/** Stops, starts and deletes a running server, each operation to its end. */
export async function stopStartDelete(stack: Stack, id: string): Promise<void> {
  for (const operation of ['stop', 'start', 'delete'] as const) await runOperation(stack, id, operation);
}
