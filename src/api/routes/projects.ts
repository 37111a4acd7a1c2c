import { Router } from 'express';
import type { z } from 'zod';
import { createProject, deleteProject, findProject, listProjects, removeProjectMember, setProjectMember, updateProject, type MemberRow, type ProjectWithUsage } from '../../services/projects';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { listHandler, parseBody, pathParam, send } from '../http';
import { listQuerySchema, registerRoute } from '../openapi';
import { projectBody, projectMemberBody, projectMemberView, projectPatch, projectView } from '../schemas/projects';

const tags = ['projects'];
const item = '/v1/projects/:id';
const member = '/v1/projects/:id/members/:userId';

registerRoute({
  method: 'post',
  path: '/v1/projects',
  summary: 'Create a project: a group of servers with its own members, restrictions and quota (tenant owners)',
  description:
    "Every server belongs to one project of its tenant. A project may restrict the plans, images and locations its servers use and carry its own quota inside the tenant's; both are checked in every create in it.",
  tags,
  request: { body: projectBody },
  response: projectView,
  status: 201,
  errors: ['CONFLICT'],
});
registerRoute({ method: 'get', path: '/v1/projects', summary: 'The projects you may see, newest first (a member: the default project and those they have a role in)', tags, request: { query: listQuerySchema }, response: projectView, list: true });
registerRoute({ method: 'get', path: item, summary: 'A project, with its members and what its servers hold', tags, response: projectView, errors: ['NOT_FOUND'] });
registerRoute({
  method: 'patch',
  path: item,
  summary: "Change a project's name, restrictions or quota (tenant owners)",
  description: 'New restrictions and a new quota hold for the next create; servers already in the project stay.',
  tags,
  request: { body: projectPatch },
  response: projectView,
  errors: ['NOT_FOUND', 'CONFLICT'],
});
registerRoute({ method: 'delete', path: item, summary: 'Delete a project without servers (tenant owners); never the default one', tags, status: 204, errors: ['NOT_FOUND', 'PROJECT_IN_USE', 'PROJECT_IS_DEFAULT'] });
registerRoute({
  method: 'put',
  path: member,
  summary: "Give a user of the tenant a role in the project, or change it (tenant owners)",
  tags,
  request: { body: projectMemberBody },
  response: projectMemberView,
  errors: ['NOT_FOUND'],
});
registerRoute({ method: 'delete', path: member, summary: "Take a user's role in the project away (tenant owners)", tags, status: 204, errors: ['NOT_FOUND'] });

const memberView = (row: MemberRow): z.infer<typeof projectMemberView> => ({ userId: row.userId, email: row.user.email, role: row.role, createdAt: row.createdAt.toISOString() });

/** A restriction stored as an empty list restricts nothing: null. */
const restriction = (ids: string[]) => (ids.length > 0 ? ids : null);

function toProjectView(project: ProjectWithUsage): z.infer<typeof projectView> {
  const { quotaInstances, quotaVcpus, quotaMemoryMiB, quotaDiskGiB } = project;
  const hasQuota = quotaInstances !== null && quotaVcpus !== null && quotaMemoryMiB !== null && quotaDiskGiB !== null;
  return {
    id: project.id,
    tenantId: project.tenantId,
    name: project.name,
    isDefault: project.isDefault,
    allowedPlanIds: restriction(project.allowedPlanIds),
    allowedImageIds: restriction(project.allowedImageIds),
    allowedLocationIds: restriction(project.allowedLocationIds),
    quota: hasQuota ? { instances: quotaInstances, vcpus: quotaVcpus, memoryMiB: quotaMemoryMiB, diskGiB: quotaDiskGiB } : null,
    usage: project.usage,
    members: project.members.map(memberView),
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

/** The tenant's projects and their members. */
export function projectsRouter(deps: ApiDeps): Router {
  const router = Router();
  router.post('/projects', async (req, res) => {
    send(res, toProjectView(await createProject(deps, principal(req), parseBody(projectBody, req))), {}, 201);
  });
  router.get('/projects', (req, res) => listHandler((page) => listProjects(deps, principal(req), page), toProjectView)(req, res));
  router.get('/projects/:id', async (req, res) => {
    send(res, toProjectView(await findProject(deps, principal(req), pathParam(req, 'id'))));
  });
  router.patch('/projects/:id', async (req, res) => {
    send(res, toProjectView(await updateProject(deps, principal(req), pathParam(req, 'id'), parseBody(projectPatch, req))));
  });
  router.delete('/projects/:id', async (req, res) => {
    await deleteProject(deps, principal(req), pathParam(req, 'id'));
    res.status(204).end();
  });
  router.put('/projects/:id/members/:userId', async (req, res) => {
    send(res, memberView(await setProjectMember(deps, principal(req), pathParam(req, 'id'), pathParam(req, 'userId'), parseBody(projectMemberBody, req).role)));
  });
  router.delete('/projects/:id/members/:userId', async (req, res) => {
    await removeProjectMember(deps, principal(req), pathParam(req, 'id'), pathParam(req, 'userId'));
    res.status(204).end();
  });
  return router;
}
