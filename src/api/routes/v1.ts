import { Router } from 'express';
import type { ApiDeps } from '../deps';
// The catalog loads first: its paths are documented before the instance routes.
import { adminPlansRouter } from './admin-plans';
import { adminImagesRouter } from './admin-images';
import { adminConnectionsRouter } from './admin-connections';
import { adminNodesRouter } from './admin-nodes';
import { adminLocationsRouter } from './admin-locations';
import { adminIpPoolsRouter } from './admin-ip-pools';
import { catalogRouter } from './catalog';
import { adminIdentityRouter } from './admin-identity';
// Routes are documented in the order their modules load: the instance routes before the admin ones.
import { instancesRouter } from './instances';
import { adminInstancesRouter } from './admin-instances';
import { adminVmidsRouter } from './admin-vmids';
import { adminOrphansRouter } from './admin-orphans';
import { adminReconcileRouter } from './admin-reconcile';
import { instanceEventsRouter } from './instance-events';
import { adminLifecycleRouter, lifecycleRouter } from './lifecycle';
import { snapshotsRouter } from './snapshots';
import { firewallRouter } from './firewall';
import { firewallGroupsRouter } from './firewall-groups';
import { projectsRouter } from './projects';
import { backupsRouter } from './backups';
import { adminIsosRouter, isosRouter } from './isos';
import { usageRouter } from './usage';
import { adminTrafficRouter, trafficRouter } from './traffic';
import { adminUsageRecordsRouter, usageRecordsRouter } from './usage-records';
import { guestConsoleRouter } from './guest-console';
import { adminTasksRouter, tasksRouter } from './tasks';
import { webhooksRouter } from './webhooks';
import { sessionsRouter } from './sessions';
import { accountRouter } from './users-account';
import { sshKeysRouter } from './ssh-keys';
import { usersAdminRouter } from './users-admin';
import { teamRouter } from './team';
import { invitationsRouter } from './invitations';
import { auditRouter } from './audit';

export function v1Router(deps: ApiDeps): Router {
  const router = Router();
  router.use(
    '/admin',
    adminIdentityRouter(deps),
    usersAdminRouter(deps),
    adminPlansRouter(deps),
    adminImagesRouter(deps),
    adminConnectionsRouter(deps),
    adminNodesRouter(deps),
    adminLocationsRouter(deps),
    adminIpPoolsRouter(deps),
    adminInstancesRouter(deps),
    adminLifecycleRouter(deps),
    adminVmidsRouter(deps),
    adminReconcileRouter(deps),
    adminTrafficRouter(deps),
    adminUsageRecordsRouter(deps),
    adminOrphansRouter(deps),
    adminTasksRouter(deps),
    adminIsosRouter(deps),
  );
  router.use(catalogRouter(deps));
  router.use(instancesRouter(deps));
  router.use(lifecycleRouter(deps));
  router.use(snapshotsRouter(deps));
  router.use(firewallRouter(deps));
  router.use(firewallGroupsRouter(deps));
  router.use(projectsRouter(deps));
  router.use(backupsRouter(deps));
  router.use(isosRouter(deps));
  router.use(usageRouter(deps));
  router.use(trafficRouter(deps));
  router.use(usageRecordsRouter(deps));
  router.use(guestConsoleRouter(deps));
  router.use(tasksRouter(deps));
  router.use(instanceEventsRouter(deps));
  router.use(webhooksRouter(deps));
  router.use(sessionsRouter(deps));
  router.use(accountRouter(deps));
  router.use(sshKeysRouter(deps));
  router.use(teamRouter(deps));
  router.use(invitationsRouter(deps));
  router.use(auditRouter(deps));
  return router;
}
