import { Router } from 'express';
import { z } from 'zod';
import type { Backup, BackupSchedule } from '../../generated/prisma/client';
import { deleteBackupSchedule, getBackupSchedule, putBackupSchedule } from '../../services/backup-schedules';
import { findBackup, listBackupsOf, requestBackup, requestBackupDelete, requestRestore } from '../../services/backups';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseBody, pathParam, send } from '../http';
import { registerRoute } from '../openapi';
import { backupScheduleView, backupView, createBackupBody, putBackupScheduleBody, type BackupScheduleBody } from '../schemas/backups';
import { instanceView } from '../schemas/instances';
import { emptyBody, operationMeta } from '../schemas/lifecycle';
import { toInstanceView } from '../views';

const tags = ['backups'];
const busy = ['NOT_FOUND', 'INVALID_STATE', 'OPERATION_IN_PROGRESS', 'BACKUP_IN_PROGRESS', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'] as const;

registerRoute({
  method: 'post',
  path: '/v1/instances/:id/backups',
  summary: 'Back a server up',
  description:
    "A vzdump archive of the whole server on its location's backup storage, made while it keeps running (snapshot mode). Counts against the plan's `backupLimit` (0: none; 422 BACKUP_LIMIT_REACHED) and needs a location with a backup storage (422 BACKUPS_UNSUPPORTED), both checked before anything is asked of Proxmox VE. " +
    'One backup runs per host at a time: the server shows `backing_up` while it waits and while it is written, and answers other operations with 409 BACKUP_IN_PROGRESS meanwhile.',
  tags,
  request: { body: createBackupBody },
  response: backupView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'BACKUP_LIMIT_REACHED', 'BACKUPS_UNSUPPORTED'],
});
registerRoute({ method: 'get', path: '/v1/instances/:id/backups', summary: "List a server's backups, newest first", tags, response: backupView, list: true, meta: z.object({}), errors: ['NOT_FOUND'] });
registerRoute({ method: 'get', path: '/v1/backups/:id', summary: 'Get a backup', tags, response: backupView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'delete',
  path: '/v1/backups/:id',
  summary: 'Delete a backup',
  description:
    "Removes the archive from the backup storage (202, with the task that does it: the server's, or for a backup kept after its server was deleted, a task of its own). A lost backup's archive is removed too should Proxmox VE still have it. A backup without an archive (failed, or lost before it was written) is forgotten at once (200). Customers cannot delete protected backups (409 BACKUP_PROTECTED); a backup a new server is being restored from cannot be deleted until that restore ends (409 BACKUP_IN_USE).",
  tags,
  response: backupView,
  meta: operationMeta,
  status: 202,
  alsoStatuses: [200],
  errors: [...busy, 'BACKUP_PROTECTED', 'BACKUP_IN_USE'],
});
registerRoute({
  method: 'post',
  path: '/v1/backups/:id/restore',
  summary: 'Restore a server from its backup, in place',
  description:
    'An operation of the server (status `restoring`): it is stopped, the archive is written over it, its size and network are applied again and it is started if it ran. It keeps its addresses and login; everything written after the backup is lost. The backup stays. A server that moved to a host that cannot read the archive (a storage local to its old host) is refused before anything changes (409 BACKUP_NOT_ON_HOST): restore the backup as a new server instead.',
  tags,
  response: instanceView,
  meta: operationMeta,
  status: 202,
  errors: [...busy, 'BACKUP_NOT_ON_HOST'],
});

const schedulePath = '/v1/instances/:id/backup-schedule';
registerRoute({
  method: 'put',
  path: schedulePath,
  summary: "Set a server's backup schedule",
  description:
    'Backs the server up daily or weekly at a time of day in a time zone, as a Temporal Schedule (`backup-schedule-<server id>`). Each run is a backup like POST /v1/instances/{id}/backups; a run refused (plan limit reached, server busy) is recorded in `lastRefusal` and the next run comes as planned. ' +
    'At most one backup is made per local day (daily) or local week, Monday to Sunday (weekly). On the days the clocks change, a time the change skips runs at the change itself (02:30 in Europe/Berlin at 03:00 CEST), and a time that happens twice runs once, at its first occurrence. A time zone outside the IANA time zone database (an abbreviation such as PST) is 400 INVALID_INPUT. ' +
    "After a successful scheduled backup the oldest scheduled backups beyond `keepLast` are deleted; manual and protected backups are never pruned. `keepLast` may not exceed the plan's `backupLimit` (422 BACKUP_LIMIT_REACHED). Deleting the server removes its schedule. Changes of one schedule are made one at a time: a PUT or DELETE while another is still being made answers 409 CONFLICT (send it again).",
  tags,
  request: { body: putBackupScheduleBody },
  response: backupScheduleView,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'CONFLICT', 'BACKUP_LIMIT_REACHED', 'BACKUPS_UNSUPPORTED', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'],
});
registerRoute({ method: 'get', path: schedulePath, summary: "Get a server's backup schedule", tags, response: backupScheduleView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'delete',
  path: schedulePath,
  summary: "Remove a server's backup schedule",
  description:
    'No more scheduled backups; the backups it made stay. Answers the schedule removed, or 204 when the server has none (a delete is done either way, so a repeated or racing delete is not an error). A change of the same schedule still being made answers 409 CONFLICT.',
  tags,
  response: backupScheduleView,
  extraResponses: { '204': { description: 'The server has no backup schedule (any more): nothing to remove' } },
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_UNAVAILABLE', 'RATE_LIMITED'],
});

const toBackupView = (b: Backup): z.infer<typeof backupView> => ({
  id: b.id,
  instanceId: b.instanceId,
  status: b.status,
  notes: b.notes,
  protected: b.protected,
  external: b.external,
  sizeBytes: b.sizeBytes === null ? null : Number(b.sizeBytes),
  createdAt: b.createdAt.toISOString(),
  completedAt: b.completedAt?.toISOString() ?? null,
  failure: b.failureCode ? { code: b.failureCode, message: b.failureMessage ?? '' } : null,
});

const toBackupScheduleView = (s: BackupSchedule): z.infer<typeof backupScheduleView> => ({
  instanceId: s.instanceId,
  frequency: s.frequency,
  time: s.time,
  timezone: s.timezone,
  weekday: (s.weekday as BackupScheduleBody['weekday']) ?? null,
  keepLast: s.keepLast,
  lastRunAt: s.lastRunAt?.toISOString() ?? null,
  lastBackupId: s.lastBackupId,
  lastRefusal: s.lastRefusalCode,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** Backups: customers on their own servers, admins on any. */
export function backupsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/instances/:id/backups', async (req, res) => {
    const body = parseBody(createBackupBody, req);
    const result = await requestBackup(deps, principal(req), pathParam(req, 'id'), body);
    send(res, toBackupView(result.backup), { taskId: result.taskId }, 202);
  });
  router.get('/instances/:id/backups', async (req, res) => {
    send(res, (await listBackupsOf(deps, principal(req), pathParam(req, 'id'))).map(toBackupView));
  });
  router.get('/backups/:id', async (req, res) => {
    send(res, toBackupView(await findBackup(deps, principal(req), pathParam(req, 'id'))));
  });
  router.delete('/backups/:id', async (req, res) => {
    const result = await requestBackupDelete(deps, principal(req), pathParam(req, 'id'));
    send(res, toBackupView(result.backup), { taskId: result.taskId }, result.httpStatus);
  });
  router.post('/backups/:id/restore', async (req, res) => {
    parseBody(emptyBody, req);
    const result = await requestRestore(deps, principal(req), pathParam(req, 'id'));
    send(res, toInstanceView(result.instance), { taskId: result.taskId }, 202);
  });
  router.put('/instances/:id/backup-schedule', async (req, res) => {
    const body = parseBody(putBackupScheduleBody, req);
    send(res, toBackupScheduleView(await putBackupSchedule(deps, principal(req), pathParam(req, 'id'), body)));
  });
  router.get('/instances/:id/backup-schedule', async (req, res) => {
    send(res, toBackupScheduleView(await getBackupSchedule(deps, principal(req), pathParam(req, 'id'))));
  });
  router.delete('/instances/:id/backup-schedule', async (req, res) => {
    const removed = await deleteBackupSchedule(deps, principal(req), pathParam(req, 'id'));
    if (removed) send(res, toBackupScheduleView(removed));
    else res.status(204).end();
  });
  return router;
}
