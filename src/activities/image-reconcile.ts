import { Context } from '@temporalio/activity';
import { markBuildsState } from '../db/image-builds';
import { forgetJobs } from '../db/provider-jobs';
import { rebuildImageVersion } from '../services/catalog/image-sources';
import type { ActivityDeps } from './deps';
import type { ReconcileInput } from './reconcile';

/**
 * reconcileImageTemplates: an image template from a URL that is gone from the cluster (deleted
 * behind our back) makes its node not ready for the image (its template leaves the catalog, so no
 * create is placed there) and its build is made again. Only the templates the catalog points at
 * are checked: a replaced one is being removed by us.
 * Converges on retry: a build already set back to importing is no longer looked at; the build's start joins one that runs.
 */
export function createReconcileImageTemplatesActivity(deps: ActivityDeps) {
  return async function reconcileImageTemplates({ connectionId }: ReconcileInput): Promise<{ rebuilt: number }> {
    const pointed = await deps.db.imageTemplate.findMany({ where: { connectionId, image: { sourceUrl: { not: null } } } });
    const builds = await deps.db.imageBuild.findMany({
      where: { connectionId, state: 'ready', retiredAt: null, templateVmid: { in: pointed.map((t) => t.templateVmid) } },
      include: { version: true },
    });
    if (builds.length === 0) return { rebuilt: 0 };
    const connection = await deps.db.proxmoxConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const listed = new Set((await deps.proxmox(connection).guests.list()).map((g) => g.vmid));
    const gone = builds.filter((b) => b.templateVmid !== null && !listed.has(b.templateVmid));
    for (const build of gone) {
      await markBuildsState(deps.db, [build.id], 'importing');
      await forgetJobs(deps.db, `${build.id}:`);
    }
    const services = { ...deps, temporal: Context.current().client };
    const versions = new Map(gone.map((b) => [b.versionId, b.version]));
    for (const version of versions.values()) await rebuildImageVersion(services, version, connectionId);
    return { rebuilt: gone.length };
  };
}
