import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Instance, InstanceStatus } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { Alert, Loading, ServerNameAndStatusCells, Table } from '../components/ui';
import type { Problem } from '../lib/problems';
import { filterServers, statusUpdates } from '../lib/server-filter';
import { ALL_STATUSES, statusLook } from '../lib/status';
import { useProjects } from '../project-choice';

/** How often the event feed is read for status changes. */
const FEED_POLL_MS = 3000;

export function ServersPage() {
  // The header's project switcher narrows the list to one project.
  const { current: projectId, projects } = useProjects();
  const [servers, setServers] = useState<Instance[]>();
  const [locations, setLocations] = useState<{ id: string; name: string }[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [status, setStatus] = useState<InstanceStatus | ''>('');
  const [locationId, setLocationId] = useState('');
  const [search, setSearch] = useState('');
  const seenEvent = useRef<string | undefined>(undefined);
  // The feed's poll reads the list again with the project chosen now.
  const chosen = useRef(projectId);
  chosen.current = projectId;

  const load = async () => {
    const project = chosen.current;
    const answer = await outcome(api.GET('/v1/instances', { params: { query: { limit: 200, ...(project ? { projectId: project } : {}) } } }));
    if (answer.ok) setServers(answer.data);
    else setProblem(answer.problem);
  };

  useEffect(() => void load(), [projectId]);

  useEffect(() => {
    void outcome(api.GET('/v1/locations')).then((answer) => answer.ok && setLocations(answer.data));
    // Live status: the event feed says which server changed to what; a server we do not list yet means a reload.
    const poll = async () => {
      const answer = await outcome(api.GET('/v1/events', { params: { query: { limit: 50 } } }));
      if (!answer.ok || answer.data.length === 0) return;
      const first = seenEvent.current === undefined;
      const updates = statusUpdates(answer.data, seenEvent.current);
      seenEvent.current = answer.data[0]?.id;
      if (first || updates.size === 0) return;
      setServers((current) => {
        if (!current || [...updates.keys()].some((id) => !current.some((server) => server.id === id))) {
          void load();
          return current;
        }
        return current.map((server) => (updates.has(server.id) ? { ...server, status: updates.get(server.id) as InstanceStatus } : server));
      });
    };
    void poll();
    const timer = setInterval(() => void poll(), FEED_POLL_MS);
    return () => clearInterval(timer);
  }, []);

  // Across all projects, each server says which one it is in (a tenant of one project has nothing to tell apart).
  const projectName = !projectId && projects.length > 1 ? (server: Instance) => projects.find((p) => p.id === server.projectId)?.name ?? '—' : undefined;
  const shown = useMemo(() => filterServers(servers ?? [], { status, locationId, search }), [servers, status, locationId, search]);

  return (
    <section>
      <div class="heading-row">
        <h1>Servers{projectId && ` in ${projects.find((p) => p.id === projectId)?.name ?? 'this project'}`}</h1>
        <a class="button" href="/servers/new">
          Create server
        </a>
      </div>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="search">Search</label>
          <input id="search" type="search" placeholder="Host name or address" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="status-filter">Status</label>
          <select id="status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value as InstanceStatus | '')}>
            <option value="">Any</option>
            {ALL_STATUSES.map((s) => (
              <option value={s}>{statusLook(s).label}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="location-filter">Location</label>
          <select id="location-filter" value={locationId} onChange={(e) => setLocationId(e.currentTarget.value)}>
            <option value="">Any</option>
            {locations.map((l) => (
              <option value={l.id}>{l.name}</option>
            ))}
          </select>
        </div>
      </form>
      <Alert problem={problem} />
      {!servers ? (
        <Loading what="servers" />
      ) : shown.length === 0 ? (
        <p class="muted">{servers.length === 0 ? 'No servers yet.' : 'No server matches these filters.'}</p>
      ) : (
        <Table caption="Your servers" hiddenCaption columns={['Host name', 'Status', ...(projectName ? ['Project'] : []), 'Plan', 'Location', 'Addresses']}>
            {shown.map((server) => (
              <tr data-server={server.hostname}>
                <ServerNameAndStatusCells server={server} />
                {projectName && <td data-label="Project">{projectName(server)}</td>}
                <td data-label="Plan">{server.plan.name}</td>
                <td data-label="Location">{server.location.name}</td>
                <td data-label="Addresses">{[server.ipv4, server.ipv6].filter(Boolean).join(', ') || '—'}</td>
              </tr>
            ))}
        </Table>
      )}
    </section>
  );
}
