import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { components, Instance } from '../../../clients/typescript/index';
import { api, outcome, type Outcome } from '../api';
import { Alert, Confirm, described, Field, Table } from '../components/ui';
import { BackupScheduleForm } from './backup-schedule';
import { bytes } from '../lib/chart';
import { when } from '../lib/format';
import { placeProblem, type Problem } from '../lib/problems';

type Snapshot = components['schemas']['Snapshot'];
type Backup = components['schemas']['Backup'];

/** Runs an accepted operation of the server and follows it live; answers the refusal, if any, for the caller to show. */
export type Accept = <T>(call: () => Promise<Outcome<T>>) => Promise<Problem | undefined>;

interface Question {
  title: string;
  confirmLabel: string;
  body: ComponentChildren;
  /** Where the answer's refusal is shown. */
  at: string;
  run(): Promise<Problem | undefined>;
}

/** A row's button that asks before it acts; `name` says what it acts on, for assistive technology. */
function AskButton({ label, name, question, ask }: { label: string; name: string; question: Question; ask(question: Question): void }) {
  return (
    <button type="button" class="secondary" aria-label={name} onClick={() => ask(question)}>
      {label}
    </button>
  );
}

/** Refusals by the control they answer, and the one question being asked. */
function useControls() {
  const [problems, setProblems] = useState<Record<string, Problem | undefined>>({});
  const [question, setQuestion] = useState<Question>();
  const show = (at: string, problem: Problem | undefined) => setProblems((all) => ({ ...all, [at]: problem }));
  const dialog = (
    <Confirm
      open={question !== undefined}
      title={question?.title ?? ''}
      confirmLabel={question?.confirmLabel ?? ''}
      danger
      onCancel={() => setQuestion(undefined)}
      onConfirm={() => {
        const asked = question;
        setQuestion(undefined);
        if (asked) void asked.run().then((problem) => show(asked.at, problem));
      }}
    >
      {question?.body}
    </Confirm>
  );
  return { problems, show, ask: setQuestion, dialog };
}

/** The server's snapshots: taken, rolled back to (followed on the step thread) and deleted, each refusal next to its control. */
export function Snapshots({ server, revision, accept }: { server: Instance; revision: number; accept: Accept }) {
  const [snapshots, setSnapshots] = useState<Snapshot[]>([]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const { problems, show, ask, dialog } = useControls();
  const path = { params: { path: { id: server.id } } };
  const reload = () => void outcome(api.GET('/v1/instances/{id}/snapshots', path)).then((a) => a.ok && setSnapshots(a.data));
  useEffect(reload, [server.id, revision]);

  const take = async (event: Event) => {
    event.preventDefault();
    setFields({});
    show('create', undefined);
    const problem = await accept(() => outcome(api.POST('/v1/instances/{id}/snapshots', { ...path, body: { name, ...(description ? { description } : {}) } })));
    if (problem) {
      const placed = placeProblem(problem, ['name', 'description']);
      setFields(placed.fields);
      show('create', placed.form ? { ...problem, message: placed.form } : undefined);
    } else {
      setName('');
      setDescription('');
    }
    reload();
  };
  const itemPath = (snapshot: Snapshot) => ({ params: { path: { id: server.id, name: snapshot.name } } });

  return (
    <div class="panel" id="snapshots">
      <h2>Snapshots</h2>
      {snapshots.length === 0 ? (
        <p class="muted">No snapshots yet.</p>
      ) : (
        <Table caption="Snapshots" hiddenCaption columns={['Name', 'Description', 'Status', 'Taken', '']}>
          {snapshots.map((snapshot) => (
            <tr data-snapshot={snapshot.name}>
              <td data-label="Name">{snapshot.name}</td>
              <td data-label="Description">{snapshot.description || '—'}</td>
              <td data-label="Status">{snapshot.status}</td>
              <td data-label="Taken">{when(snapshot.createdAt)}</td>
              <td>
                <div class="actions">
                  <AskButton
                    label="Roll back"
                    name={`Roll back to ${snapshot.name}`}
                    ask={ask}
                    question={{
                      title: `Roll ${server.hostname} back to ${snapshot.name}?`,
                      confirmLabel: 'Roll back',
                      body: <p>Everything written after this snapshot is lost. A running server is stopped and started again.</p>,
                      at: `snapshot:${snapshot.name}`,
                      run: () => accept(() => outcome(api.POST('/v1/instances/{id}/snapshots/{name}/rollback', itemPath(snapshot)))),
                    }}
                  />
                  <AskButton
                    label="Delete"
                    name={`Delete snapshot ${snapshot.name}`}
                    ask={ask}
                    question={{
                      title: `Delete the snapshot ${snapshot.name}?`,
                      confirmLabel: 'Delete snapshot',
                      body: <p>The server stays as it is; it can no longer be rolled back to this point.</p>,
                      at: `snapshot:${snapshot.name}`,
                      run: async () => {
                        const problem = await accept(() => outcome(api.DELETE('/v1/instances/{id}/snapshots/{name}', itemPath(snapshot))));
                        reload();
                        return problem;
                      },
                    }}
                  />
                </div>
                <Alert problem={problems[`snapshot:${snapshot.name}`]} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form class="narrow" onSubmit={take}>
        <h3>Take a snapshot</h3>
        <Field id="snapshot-name" label="Name" error={fields.name} hint="A letter, then letters, digits, - or _ (at most 40).">
          <input {...described('snapshot-name', fields.name, 'hint')} value={name} required maxLength={40} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field id="snapshot-description" label="Description (optional)" error={fields.description}>
          <input {...described('snapshot-description', fields.description)} value={description} maxLength={1000} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
        <button type="submit">Take snapshot</button>
        <Alert problem={problems.create} />
      </form>
      {dialog}
    </div>
  );
}

/** The server's backups: made, restored in place and deleted (both confirmed), each refusal next to its control. */
export function Backups({ server, revision, accept }: { server: Instance; revision: number; accept: Accept }) {
  const [backups, setBackups] = useState<Backup[]>([]);
  const [notes, setNotes] = useState('');
  const { problems, show, ask, dialog } = useControls();
  const path = { params: { path: { id: server.id } } };
  const reload = () => void outcome(api.GET('/v1/instances/{id}/backups', path)).then((a) => a.ok && setBackups(a.data));
  useEffect(reload, [server.id, revision]);

  const backUp = async (event: Event) => {
    event.preventDefault();
    show('create', undefined);
    const problem = await accept(() => outcome(api.POST('/v1/instances/{id}/backups', { ...path, body: notes ? { notes } : {} })));
    show('create', problem);
    if (!problem) setNotes('');
    reload();
  };
  const byId = (backup: Backup) => ({ params: { path: { id: backup.id } } });

  return (
    <div class="panel" id="backups">
      <h2>Backups</h2>
      {backups.length === 0 ? (
        <p class="muted">No backups yet.</p>
      ) : (
        <Table caption="Backups" hiddenCaption columns={['Made', 'Status', 'Size', 'Protected', 'Notes', '']}>
          {backups.map((backup) => (
            <tr data-backup={backup.id}>
              <td data-label="Made">{when(backup.completedAt ?? backup.createdAt)}</td>
              <td data-label="Status">
                {backup.status}
                {backup.failure && <span class="muted"> — {backup.failure.message}</span>}
              </td>
              <td data-label="Size">{backup.sizeBytes === null ? '—' : bytes(backup.sizeBytes)}</td>
              <td data-label="Protected">{backup.protected ? 'Yes' : 'No'}</td>
              <td data-label="Notes">{backup.notes ?? '—'}</td>
              <td>
                <div class="actions">
                  <AskButton
                    label="Restore"
                    name={`Restore the backup of ${when(backup.createdAt)}`}
                    ask={ask}
                    question={{
                      title: `Restore ${server.hostname} from this backup?`,
                      confirmLabel: 'Restore',
                      body: <p>The server is stopped and its disk replaced with the backup; everything written after it is lost. Its addresses and login stay.</p>,
                      at: `backup:${backup.id}`,
                      run: () => accept(() => outcome(api.POST('/v1/backups/{id}/restore', byId(backup)))),
                    }}
                  />
                  <AskButton
                    label="Delete"
                    name={`Delete the backup of ${when(backup.createdAt)}`}
                    ask={ask}
                    question={{
                      title: 'Delete this backup?',
                      confirmLabel: 'Delete backup',
                      body: <p>The archive is removed from the backup storage; the server cannot be restored from it any more.</p>,
                      at: `backup:${backup.id}`,
                      run: async () => {
                        const problem = await accept(() => outcome(api.DELETE('/v1/backups/{id}', byId(backup))));
                        reload();
                        return problem;
                      },
                    }}
                  />
                </div>
                <Alert problem={problems[`backup:${backup.id}`]} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form class="inline" onSubmit={backUp}>
        <label for="backup-notes">Notes (optional)</label>
        <input id="backup-notes" value={notes} maxLength={1000} onInput={(e) => setNotes(e.currentTarget.value)} />
        <button type="submit">Back up now</button>
      </form>
      <Alert problem={problems.create} />
      <BackupScheduleForm server={server} />
      {dialog}
    </div>
  );
}
