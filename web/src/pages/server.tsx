import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { components, Instance, InstanceEvent } from '../../../clients/typescript/index';
import { api, outcome, type Outcome } from '../api';
import { ConsoleControl } from '../components/console-control';
import { ShareDialog } from '../components/share-dialog';
import { Alert, Confirm, Loading, Notice, ShownOnce, StatusBadge } from '../components/ui';
import { planText, taskText, when } from '../lib/format';
import type { Problem } from '../lib/problems';
import { powerActions, isBusy } from '../lib/status';
import { followSteps } from '../lib/step-stream';
import { addStep, type Step } from '../lib/step-thread';
import { isAdmin, useSession } from '../session';
import { useProjects } from '../project-choice';
import { TrafficPanel } from '../components/traffic-panel';
import { UsageGraphs } from '../components/usage-graphs';
import { AdminServerDetails } from './admin/server-details';
import { Backups, Snapshots, type Accept } from './server-protection';
import { ServerFirewall } from './server-firewall';
import { RescueAndIso } from './server-rescue';
import { NotFound } from './not-found';

type Credential = components['schemas']['Credential'];
type Power = 'start' | 'shutdown' | 'stop' | 'reboot';

const POWER_PATH = {
  start: '/v1/instances/{id}/start',
  shutdown: '/v1/instances/{id}/shutdown',
  stop: '/v1/instances/{id}/stop',
  reboot: '/v1/instances/{id}/reboot',
} as const;
const POWER_LABEL: Record<Power, string> = { start: 'Start', shutdown: 'Shut down', stop: 'Stop (force)', reboot: 'Reboot' };

export function ServerPage() {
  const { params } = useRoute();
  const id = params.id as string;
  const session = useSession();
  const { projects } = useProjects();
  const [server, setServer] = useState<Instance | null>();
  const [steps, setSteps] = useState<Step[]>([]);
  const [live, setLive] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [credential, setCredential] = useState<Credential>();
  const [events, setEvents] = useState<InstanceEvent[]>([]);
  const [askingDelete, setAskingDelete] = useState(false);
  const [revision, setRevision] = useState(0);
  const following = useRef<AbortController | undefined>(undefined);

  /** Reads the server (and its step thread, unless one is being followed); the panels below read theirs again. */
  const load = async (withSteps = true) => {
    const answer = await outcome(api.GET('/v1/instances/{id}', { params: { path: { id } } }));
    if (!answer.ok) {
      if (answer.status === 404 || answer.status === 400) setServer(null);
      else setProblem(answer.problem);
      return undefined;
    }
    setServer(answer.data);
    setRevision((n) => n + 1);
    if (withSteps) setSteps(answer.data.task?.steps ?? []);
    void outcome(api.GET('/v1/events', { params: { query: { instanceId: id, limit: 20 } } })).then((e) => e.ok && setEvents(e.data));
    return answer.data;
  };

  /** Follows the current task's step thread live, then reads the server again. */
  const follow = () => {
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    setLive(true);
    void followSteps(api, id, (step) => setSteps((thread) => addStep(thread, step)), controller.signal)
      .catch(() => undefined)
      .then(() => {
        if (controller.signal.aborted) return;
        setLive(false);
        void load();
      });
  };

  useEffect(() => {
    void load().then((first) => first?.task && (first.task.status === 'running' || first.task.status === 'pending' || isBusy(first.status)) && follow());
    return () => following.current?.abort();
  }, [id]);

  /** Runs an operation; an accepted one is followed live, a refusal (409 and the like) is answered as the API said it. */
  const accept: Accept = async (call) => {
    const answer = await call();
    if (!answer.ok) return answer.problem;
    setSteps([]);
    follow();
    void load(false);
    return undefined;
  };
  const operate = async (call: () => Promise<Outcome<Instance>>) => {
    setProblem(undefined);
    setProblem(await accept(call));
  };
  const power = (action: Power) => operate(() => outcome(api.POST(POWER_PATH[action], { params: { path: { id } } })));

  const reveal = async () => {
    setProblem(undefined);
    const answer = await outcome(api.POST('/v1/instances/{id}/credentials/reveal', { params: { path: { id } } }));
    if (answer.ok) setCredential(answer.data);
    else setProblem(answer.problem);
  };

  if (server === null) return <NotFound what="server" />;
  if (server === undefined) return problem ? <Alert problem={problem} /> : <Loading what="the server" />;
  const project = projects.find((p) => p.id === server.projectId);
  return (
    <section>
      <div class="heading-row">
        <h1>{server.hostname}</h1>
        <StatusBadge status={server.status} />
        {!isAdmin(session) && server.status !== 'deleted' && <ShareDialog instanceId={id} hostname={server.hostname} />}
      </div>
      <dl class="facts">
        {/* A customer sees at least the default project: none yet is not read yet (an administrator has none). */}
        {projects.length > 0 && (
          <>
            <dt>Project</dt>
            {/* A server shared from a project the user has no role in names none of it. */}
            <dd>{project ? <a href={`/projects?project=${encodeURIComponent(project.id)}`}>{project.name}</a> : <span class="muted">one you have no role in</span>}</dd>
          </>
        )}
        <dt>Plan</dt>
        <dd>{server.plan.name}</dd>
        <dt>Image</dt>
        <dd>{server.image.name}</dd>
        <dt>Location</dt>
        <dd>{server.location.name}</dd>
        <dt>IPv4</dt>
        <dd>{server.ipv4 ?? '—'}</dd>
        <dt>IPv6</dt>
        <dd>{server.ipv6 ?? '—'}</dd>
        <dt>User</dt>
        <dd>{server.username}</dd>
        <dt>Created</dt>
        <dd>{when(server.createdAt)}</dd>
      </dl>

      {server.failure && (
        <div class="failure" role="alert">
          <h2>
            <span aria-hidden="true">✕ </span>It failed
          </h2>
          <p>{server.failure.message}</p>
          <p class="code">{server.failure.code}</p>
        </div>
      )}

      {!isAdmin(session) && server.status !== 'deleted' && (
        <div class="panel">
          <h2>Power</h2>
          <div class="actions" role="group" aria-label="Power">
            {(['start', 'shutdown', 'stop', 'reboot'] as Power[]).map((action) => (
              <button type="button" class={powerActions(server.status).includes(action) ? '' : 'secondary'} onClick={() => power(action)}>
                {POWER_LABEL[action]}
              </button>
            ))}
          </div>
          <ConsoleControl instanceId={id} />
          <Alert problem={problem} />
        </div>
      )}

      {!isAdmin(session) && (server.status === 'running' || server.status === 'stopped') && (
        <div class="panel">
          <h2>Login</h2>
          {credential ? (
            <>
              <p>
                User <code>{credential.username}</code>
              </p>
              {credential.password && <ShownOnce label="Password" value={credential.password} />}
              {credential.sshKeys && <p>Login with the SSH keys you gave.</p>}
            </>
          ) : (
            <>
              <p>The login credential can be revealed once, while the server is running or stopped.</p>
              <button type="button" onClick={reveal}>
                Reveal password
              </button>
            </>
          )}
        </div>
      )}

      <div class="panel">
        <h2>
          Steps {server.task && <span class="muted">({taskText(server.task.type)})</span>} {live && <span class="live">live</span>}
        </h2>
        {steps.length === 0 ? (
          <p class="muted">No steps yet.</p>
        ) : (
          <ol class="steps" aria-live="polite">
            {steps.map((step) => (
              <li class={`step step-${step.status}`}>
                <span class="step-status">{step.status === 'success' ? '✓' : step.status === 'error' ? '✕' : step.status === 'warning' ? '!' : '…'}</span>{' '}
                <span class="step-name">{step.step}</span> <span class="step-message">{step.message}</span>
              </li>
            ))}
          </ol>
        )}
      </div>

      {server.status !== 'deleted' && <UsageGraphs id={id} revision={revision} />}

      {server.status !== 'deleted' && <TrafficPanel id={id} revision={revision} />}

      {!isAdmin(session) && server.status !== 'deleted' && (
        <>
          <RescueAndIso server={server} revision={revision} accept={accept} />
          <Snapshots server={server} revision={revision} accept={accept} />
          <Backups server={server} revision={revision} accept={accept} />
          <ServerFirewall server={server} revision={revision} accept={accept} />
        </>
      )}

      {!isAdmin(session) && server.status !== 'deleted' && <Changes server={server} operate={operate} onDelete={() => setAskingDelete(true)} />}

      <Confirm
        open={askingDelete}
        title={`Delete ${server.hostname}?`}
        confirmLabel="Delete server"
        danger
        onCancel={() => setAskingDelete(false)}
        onConfirm={() => {
          setAskingDelete(false);
          void operate(() => outcome(api.DELETE('/v1/instances/{id}', { params: { path: { id } } })));
        }}
      >
        <p>The server and its disk are destroyed; its addresses are given back. This cannot be undone.</p>
      </Confirm>

      <div class="panel">
        <h2>Events</h2>
        {events.length === 0 ? (
          <p class="muted">No events yet.</p>
        ) : (
          <ul class="events">
            {events.map((event) => (
              <li>
                <time dateTime={event.createdAt}>{when(event.createdAt)}</time> {event.type} <span class="muted">→ {event.data.status}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {isAdmin(session) && <AdminServerDetails id={id} />}
      {live && <Notice>Following the step thread live.</Notice>}
    </section>
  );
}

/** Resize, rebuild and delete. */
function Changes({ server, operate, onDelete }: { server: Instance; operate(call: () => Promise<Outcome<Instance>>): Promise<void>; onDelete(): void }) {
  const [plans, setPlans] = useState<components['schemas']['Plan'][]>([]);
  const [images, setImages] = useState<components['schemas']['Image'][]>([]);
  const [planId, setPlanId] = useState(server.plan.id);
  const [imageId, setImageId] = useState(server.image.id);
  const [rebuildAsked, setRebuildAsked] = useState(false);
  useEffect(() => {
    void outcome(api.GET('/v1/plans')).then((a) => a.ok && setPlans(a.data));
    void outcome(api.GET('/v1/images')).then((a) => a.ok && setImages(a.data));
  }, []);
  const path = { params: { path: { id: server.id } } };
  return (
    <div class="panel">
      <h2>Change</h2>
      <form class="inline" onSubmit={(e) => (e.preventDefault(), void operate(() => outcome(api.POST('/v1/instances/{id}/resize', { ...path, body: { planId } }))))}>
        <label for="resize-plan">Plan</label>
        <select id="resize-plan" value={planId} onChange={(e) => setPlanId(e.currentTarget.value)}>
          {plans.map((plan) => (
            <option value={plan.id}>{planText(plan)}</option>
          ))}
        </select>
        <button type="submit">Resize</button>
      </form>
      <p class="hint">A server is resized while it is stopped.</p>
      <form class="inline" onSubmit={(e) => (e.preventDefault(), setRebuildAsked(true))}>
        <label for="rebuild-image">Image</label>
        <select id="rebuild-image" value={imageId} onChange={(e) => setImageId(e.currentTarget.value)}>
          {images.map((image) => (
            <option value={image.id}>{image.name}</option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Rebuild
        </button>
      </form>
      <Confirm
        open={rebuildAsked}
        title={`Rebuild ${server.hostname}?`}
        confirmLabel="Rebuild"
        danger
        onCancel={() => setRebuildAsked(false)}
        onConfirm={() => {
          setRebuildAsked(false);
          void operate(() => outcome(api.POST('/v1/instances/{id}/rebuild', { ...path, body: { imageId } })));
        }}
      >
        <p>The disk is replaced with a fresh one; everything on it is lost. A new password is made.</p>
      </Confirm>
      <div class="danger-zone">
        <button type="button" class="danger" onClick={onDelete}>
          Delete server
        </button>
      </div>
    </div>
  );
}
