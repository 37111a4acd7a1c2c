import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { components } from '../../../clients/typescript/index';
import { api, idempotencyKey, outcome } from '../api';
import { Alert, described, Field, Loading } from '../components/ui';
import { planText } from '../lib/format';
import { orderCatalog } from '../lib/catalog';
import { placeProblem, type PlacedProblem } from '../lib/problems';
import { allowedChoice, quotaLeft, quotaLeftText, refusedBy } from '../lib/project-limits';
import { keyKind, type SshKey } from './ssh-keys';
import { projectForCreate, useProjects } from '../project-choice';

type Plan = components['schemas']['Plan'];
type Image = components['schemas']['Image'];
type Location = components['schemas']['Location'];
type Account = components['schemas']['Account'];

const FIELDS = ['projectId', 'planId', 'locationId', 'imageId', 'hostname', 'sshKeyIds', 'sshKeys', 'userData'] as const;

export function CreateServerPage() {
  const location = useLocation();
  const [plans, setPlans] = useState<Plan[]>();
  const [images, setImages] = useState<Image[]>([]);
  const [locations, setLocations] = useState<Location[]>([]);
  const [account, setAccount] = useState<Account>();
  const projects = useProjects();
  const [savedKeys, setSavedKeys] = useState<SshKey[]>([]);
  const [keyIds, setKeyIds] = useState<string[]>([]);
  // The project the header's switcher chose (else the default one) is where the server goes unless changed here.
  const [form, setForm] = useState({ projectId: projectForCreate(projects), planId: '', locationId: '', imageId: '', hostname: '', sshKeys: '', userData: '' });
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [busy, setBusy] = useState(false);
  // One key per form: a double submit, or a retry after a lost answer, replays the first create.
  const [key] = useState(idempotencyKey);

  useEffect(() => {
    // What the projects' servers hold now: the switcher read them when the console opened.
    projects.reload();
    void Promise.all([outcome(api.GET('/v1/plans')), outcome(api.GET('/v1/images')), outcome(api.GET('/v1/locations')), outcome(api.GET('/v1/account')), outcome(api.GET('/v1/ssh-keys'))]).then(
      ([p, i, l, a, k]) => {
        const catalog = orderCatalog(p.ok ? p.data : [], i.ok ? i.data : [], l.ok ? l.data : []);
        setPlans(catalog.plans);
        setImages(catalog.images);
        setLocations(catalog.locations);
        if (a.ok) setAccount(a.data);
        if (k.ok) setSavedKeys(k.data);
        setForm((f) => ({ ...f, ...catalog.defaults }));
      },
    );
  }, []);

  const set = (field: keyof typeof form) => (event: Event) => setForm({ ...form, [field]: (event.currentTarget as HTMLInputElement).value });
  const tenant = account?.tenant;
  const left = tenant && quotaLeft(tenant.quota, tenant.usage);
  const image = useMemo(() => images.find((i) => i.id === form.imageId), [images, form.imageId]);
  const project = projects.projects.find((p) => p.id === form.projectId);
  const projectLeft = project?.quota && quotaLeft(project.quota, project.usage);

  // What the project does not allow is not chosen: a choice it refuses moves to the first it allows.
  useEffect(() => {
    if (!plans || !project) return;
    setForm((f) => ({
      ...f,
      planId: allowedChoice(f.planId, plans.map((p) => p.id), project.allowedPlanIds),
      locationId: allowedChoice(f.locationId, locations.map((l) => l.id), project.allowedLocationIds),
      imageId: allowedChoice(f.imageId, images.map((i) => i.id), project.allowedImageIds),
    }));
  }, [plans, project]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const sshKeys = form.sshKeys.split('\n').map((line) => line.trim()).filter(Boolean);
    const answer = await outcome(
      api.POST('/v1/instances', {
        body: {
          ...(form.projectId ? { projectId: form.projectId } : {}),
          planId: form.planId,
          locationId: form.locationId,
          imageId: form.imageId,
          hostname: form.hostname,
          ...(keyIds.length > 0 ? { sshKeyIds: keyIds } : {}),
          ...(sshKeys.length > 0 ? { sshKeys } : {}),
          ...(form.userData.trim() ? { userData: form.userData } : {}),
        },
        params: { header: { 'Idempotency-Key': key } },
      }),
    );
    setBusy(false);
    if (answer.ok) location.route(`/servers/${answer.data.id}`);
    else setPlaced(placeProblem(answer.problem, FIELDS));
  };

  if (!plans) return <Loading what="the catalog" />;
  const { fields } = placed;
  return (
    <section class="narrow">
      <h1>Create a server</h1>
      {left && (
        <p class="quota" id="quota-left">
          Quota left: {quotaLeftText(left)}.
        </p>
      )}
      {project && projectLeft && (
        <p class="quota" id="project-quota-left">
          Left in {project.name}: {quotaLeftText(projectLeft)}.
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <Field id="projectId" label="Project" error={fields.projectId}>
          <select {...described('projectId', fields.projectId)} value={form.projectId} onChange={set('projectId')}>
            {projects.projects.map((p) => (
              <option value={p.id}>{p.name}</option>
            ))}
          </select>
        </Field>
        <Field id="planId" label="Plan" error={fields.planId}>
          <select {...described('planId', fields.planId)} value={form.planId} onChange={set('planId')}>
            {plans.map((plan) => (
              <Choice id={plan.id} text={planText(plan)} refused={refusedBy(project, 'allowedPlanIds', plan.id)} />
            ))}
          </select>
        </Field>
        <Field id="locationId" label="Location" error={fields.locationId}>
          <select {...described('locationId', fields.locationId)} value={form.locationId} onChange={set('locationId')}>
            {locations.map((l) => (
              <Choice id={l.id} text={l.name} refused={refusedBy(project, 'allowedLocationIds', l.id)} />
            ))}
          </select>
        </Field>
        <Field id="imageId" label="Image" error={fields.imageId} hint={image ? `Login: ${image.loginMethods.join(' or ') || 'none supported'}` : undefined}>
          <select {...described('imageId', fields.imageId, image ? 'hint' : undefined)} value={form.imageId} onChange={set('imageId')}>
            {images.map((i) => (
              <Choice id={i.id} text={i.name} refused={refusedBy(project, 'allowedImageIds', i.id)} />
            ))}
          </select>
        </Field>
        <Field id="hostname" label="Host name" error={fields.hostname}>
          <input {...described('hostname', fields.hostname)} value={form.hostname} onInput={set('hostname')} autocomplete="off" spellcheck={false} />
        </Field>
        <fieldset class="saved-keys" aria-describedby={fields.sshKeyIds ? 'sshKeyIds-error' : undefined}>
          <legend>Your saved SSH keys</legend>
          {savedKeys.length === 0 && (
            <p class="muted">
              None yet: save your keys on the <a href="/account#ssh-keys">account page</a> to choose them here.
            </p>
          )}
          {savedKeys.map((key) => (
            <label class="check">
              <input type="checkbox" name="sshKeyIds" value={key.id} checked={keyIds.includes(key.id)} onChange={(e) => setKeyIds(e.currentTarget.checked ? [...keyIds, key.id] : keyIds.filter((id) => id !== key.id))} />
              <span>
                {key.name} <span class="muted">({keyKind(key)})</span>
                <code class="fingerprint">{key.fingerprint}</code>
              </span>
            </label>
          ))}
          {fields.sshKeyIds && (
            <p class="field-error" id="sshKeyIds-error" role="alert">
              {fields.sshKeyIds}
            </p>
          )}
        </fieldset>
        <Field id="sshKeys" label="Other SSH public keys (one per line, optional)" error={fields.sshKeys}>
          <textarea {...described('sshKeys', fields.sshKeys)} rows={3} value={form.sshKeys} onInput={set('sshKeys')} spellcheck={false} />
        </Field>
        <details open={Boolean(fields.userData) || undefined}>
          <summary>User data (optional)</summary>
          <Field id="userData" label="cloud-config" error={fields.userData} hint="A #cloud-config YAML mapping.">
            <textarea {...described('userData', fields.userData, 'hint')} rows={6} value={form.userData} onInput={set('userData')} spellcheck={false} />
          </Field>
        </details>
        <Alert problem={placed.form} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create server'}
        </button>
      </form>
    </section>
  );
}

/** A catalog entry of the form: one the chosen project refuses is shown disabled, with why. */
function Choice({ id, text, refused }: { id: string; text: string; refused: string | undefined }) {
  return (
    <option value={id} disabled={Boolean(refused)}>
      {refused ? `${text} (${refused})` : text}
    </option>
  );
}
