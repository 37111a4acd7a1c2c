import type { Project } from '../project-choice';
import { gib } from './format';

type Quota = Project['usage'];

/** What is left of a quota once its usage is taken. */
export const quotaLeft = (quota: Quota, usage: Quota): Quota => ({
  instances: quota.instances - usage.instances,
  vcpus: quota.vcpus - usage.vcpus,
  memoryMiB: quota.memoryMiB - usage.memoryMiB,
  diskGiB: quota.diskGiB - usage.diskGiB,
});

/** A quota left, as the create form says it. */
export const quotaLeftText = (left: Quota) => `${left.instances} servers, ${left.vcpus} vCPUs, ${gib(left.memoryMiB)} memory, ${left.diskGiB} GiB disk`;

type Restriction = 'allowedPlanIds' | 'allowedImageIds' | 'allowedLocationIds';

/** Why a project refuses a plan, image or location (undefined: it may be used there); a null list restricts nothing. */
export function refusedBy(project: Project | undefined, restriction: Restriction, id: string): string | undefined {
  const allowed = project?.[restriction];
  return project && allowed && !allowed.includes(id) ? `not allowed in ${project.name}` : undefined;
}

/** The chosen id if the project allows it, else the first it allows (the choice as it was when none is allowed). */
export const allowedChoice = (chosen: string, ids: string[], allowed: string[] | null | undefined): string =>
  !allowed || allowed.includes(chosen) ? chosen : (ids.find((id) => allowed.includes(id)) ?? chosen);
