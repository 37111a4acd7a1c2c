import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { components } from '../../clients/typescript/index';
import { api, outcome } from './api';

export type Project = components['schemas']['Project'];

/** The projects the user may see and the one the header's switcher chose ('' : all of them). */
export interface ProjectChoice {
  projects: Project[];
  current: string;
  choose(projectId: string): void;
  /** Reads the projects again (after one was made, renamed or deleted). */
  reload(): void;
}

const STORED = 'pvecp.project';

const ProjectContext = createContext<ProjectChoice>({ projects: [], current: '', choose: () => undefined, reload: () => undefined });

export const useProjects = () => useContext(ProjectContext);

/** The project the create form starts with: the chosen one, else the tenant's default project. */
export const projectForCreate = ({ projects, current }: ProjectChoice): string => current || (projects.find((p) => p.isDefault)?.id ?? '');

/** `enabled`: the user belongs to a tenant (administrators have no projects). */
export function ProjectChoiceProvider({ enabled, children }: { enabled: boolean; children: ComponentChildren }) {
  const [projects, setProjects] = useState<Project[]>([]);
  const [current, setCurrent] = useState(() => localStorage.getItem(STORED) ?? '');
  const reload = () =>
    void outcome(api.GET('/v1/projects', { params: { query: { limit: 200 } } })).then((answer) => {
      if (!answer.ok) return;
      setProjects(answer.data);
      // A project that is gone (or no longer shown to this user) is no choice.
      setCurrent((chosen) => (answer.data.some((p) => p.id === chosen) ? chosen : ''));
    });
  useEffect(() => {
    if (enabled) reload();
  }, []);
  const choose = (projectId: string) => {
    localStorage.setItem(STORED, projectId);
    setCurrent(projectId);
  };
  return <ProjectContext.Provider value={{ projects, current, choose, reload }}>{children}</ProjectContext.Provider>;
}

/** The header's project switcher: it filters the servers list and is the create form's default project. */
export function ProjectSwitcher() {
  const choice = useProjects();
  if (choice.projects.length === 0) return null;
  return (
    <div class="project-switcher">
      <label for="project-switcher">Project</label>
      <select id="project-switcher" value={choice.current} onChange={(e) => choice.choose(e.currentTarget.value)}>
        <option value="">All projects</option>
        {choice.projects.map((p) => (
          <option value={p.id}>{p.name}</option>
        ))}
      </select>
    </div>
  );
}
