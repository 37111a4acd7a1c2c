import type { z } from 'zod';
import type { Prisma } from '../generated/prisma/client';
import type { InstanceRow } from '../services/instances';
import type { adminInstanceView, adminTaskView, instanceView, taskView } from './schemas/instances';

type TaskRow = Prisma.TaskGetPayload<{ include: { steps: true } }>;

export function toTaskView(task: TaskRow): z.infer<typeof taskView> {
  return {
    id: task.id,
    type: task.type,
    status: task.status,
    progress: task.progress,
    currentStep: task.currentStep,
    steps: task.steps.map((s) => ({ step: s.step, status: s.status, message: s.message, at: s.at.toISOString() })),
    error: task.errorCode ? { code: task.errorCode, message: task.errorMessage ?? '' } : null,
  };
}

/** The admin's view of a task: the customer's, with why it failed in the provider's words. */
export function toAdminTaskView(task: TaskRow): z.infer<typeof adminTaskView> {
  return { ...toTaskView(task), instanceId: task.instanceId, tenantId: task.tenantId, failureCause: task.failureCause ?? null };
}

/** The customer's view: no VMID, node, UPID, template or storage. */
export function toInstanceView(row: InstanceRow): z.infer<typeof instanceView> {
  const address = (family: number) => row.addresses.find((a) => a.family === family)?.address ?? null;
  const task = row.tasks[0];
  return {
    id: row.id,
    projectId: row.projectId,
    hostname: row.hostname,
    status: row.status,
    desiredState: row.desiredState,
    plan: { id: row.plan.id, name: row.plan.name },
    location: { id: row.location.id, name: row.location.name },
    image: { id: row.image.id, name: row.image.name },
    ipv4: address(4),
    ipv6: address(6),
    username: row.username,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    task: task ? toTaskView(task) : null,
    failure: row.failureCode ? { code: row.failureCode, message: row.failureMessage ?? '' } : null,
    iso: row.iso ? { id: row.iso.id, name: row.iso.name } : null,
    bootFirst: row.bootFirst,
    rescue: row.rescueSince ? { since: row.rescueSince.toISOString() } : null,
  };
}

/** The admin's view: everything, provider coordinates included. */
export function toAdminInstanceView(
  row: InstanceRow,
  providerCalls: { phase: string; kind: string; node: string; upid: string | null; status: string; exitStatus: string | null }[],
  workflowId: string,
): z.infer<typeof adminInstanceView> {
  return {
    ...toInstanceView(row),
    tenantId: row.tenantId,
    provider: {
      connectionId: row.connectionId,
      node: row.node,
      vmid: row.vmid,
      templateVmid: row.templateVmid,
      storage: row.connection.storage,
      macAddress: row.macAddress,
      workflowId,
      operations: providerCalls.map(({ phase, kind, node, upid, status, exitStatus }) => ({ stage: phase, kind, node, upid, status, exitStatus })),
    },
    failureCause: row.failureCause ?? null,
  };
}
