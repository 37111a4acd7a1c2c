import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, done, outcome } from '../api';
import { Alert, described, Field, Notice, Table } from '../components/ui';
import { when } from '../lib/format';
import { placeProblem, type PlacedProblem, type Problem } from '../lib/problems';

export type SshKey = components['schemas']['SshKey'];

const KEY_FIELDS = ['name', 'publicKey'] as const;

/** `ed25519`, `ecdsa 384`, `rsa 4096`: a key's type and, where it varies, its size. */
export const keyKind = (key: Pick<SshKey, 'type' | 'bits'>) => (key.type === 'ed25519' ? 'ed25519' : `${key.type} ${key.bits}`);

/** The account's SSH keys: add one (its public key line), see each with its fingerprint, delete. */
export function SshKeys() {
  const [keys, setKeys] = useState<SshKey[]>([]);
  const [form, setForm] = useState({ name: '', publicKey: '' });
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [problem, setProblem] = useState<Problem>();
  const [added, setAdded] = useState<string>();
  const load = () => void outcome(api.GET('/v1/ssh-keys')).then((a) => (a.ok ? setKeys(a.data) : setProblem(a.problem)));
  useEffect(load, []);

  const add = async (event: Event) => {
    event.preventDefault();
    setAdded(undefined);
    const answer = await done(api.POST('/v1/ssh-keys', { body: { name: form.name.trim(), publicKey: form.publicKey } }));
    if (!answer.ok) return setPlaced(placeProblem(answer.problem, KEY_FIELDS));
    setPlaced({ fields: {} });
    setForm({ name: '', publicKey: '' });
    setAdded(form.name.trim());
    load();
  };
  const remove = async (key: SshKey) => {
    setAdded(undefined);
    const answer = await done(api.DELETE('/v1/ssh-keys/{id}', { params: { path: { id: key.id } } }));
    if (!answer.ok) setProblem(answer.problem);
    load();
  };

  const { fields } = placed;
  return (
    <div class="panel" id="ssh-keys">
      <h2>SSH keys</h2>
      <p class="muted">Saved here, a key can be chosen when you create or rebuild a server. ed25519, ECDSA and RSA (2048 bits or more) keys are accepted.</p>
      {keys.length === 0 ? (
        <p class="muted">No SSH keys yet.</p>
      ) : (
        <Table caption="Your SSH keys" hiddenCaption columns={['Name', 'Type', 'Fingerprint', 'Added', '']}>
        {keys.map((key) => (
          <tr data-ssh-key={key.name}>
            <td data-label="Name">{key.name}</td>
            <td data-label="Type">{keyKind(key)}</td>
            <td data-label="Fingerprint">
              <code class="fingerprint">{key.fingerprint}</code>
            </td>
            <td data-label="Added">{when(key.createdAt)}</td>
            <td>
              <button type="button" class="secondary" onClick={() => remove(key)} aria-label={`Delete SSH key ${key.name}`}>
                Delete
              </button>
            </td>
          </tr>
        ))}
        </Table>
      )}
      <Alert problem={problem} />
      <form onSubmit={add} noValidate class="narrow">
        <Field id="ssh-key-name" label="Key name" error={fields.name}>
          <input {...described('ssh-key-name', fields.name)} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} placeholder="laptop" autocomplete="off" />
        </Field>
        <Field id="ssh-key-public" label="Public key (the contents of your .pub file)" error={fields.publicKey}>
          <textarea {...described('ssh-key-public', fields.publicKey)} rows={3} value={form.publicKey} onInput={(e) => setForm({ ...form, publicKey: e.currentTarget.value })} spellcheck={false} placeholder="ssh-ed25519 AAAA… you@laptop" />
        </Field>
        <Alert problem={placed.form} />
        {added && <Notice>SSH key {added} added.</Notice>}
        <button type="submit">Add SSH key</button>
      </form>
    </div>
  );
}
