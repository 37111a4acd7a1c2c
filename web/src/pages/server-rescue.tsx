import { useEffect, useState } from 'preact/hooks';
import type { components, Instance } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { ConsoleControl } from '../components/console-control';
import { Alert, ShownOnce } from '../components/ui';
import { when } from '../lib/format';
import type { Problem } from '../lib/problems';
import type { Accept } from './server-protection';

type Iso = components['schemas']['Iso'];
type RescuePassword = components['schemas']['RescuePassword'];

/**
 * The server's CD-ROM drive, boot order and rescue mode, with the console next to them: what the
 * server boots shows on its screen one click away.
 */
export function RescueAndIso({ server, revision, accept }: { server: Instance; revision: number; accept: Accept }) {
  const [isos, setIsos] = useState<Iso[]>([]);
  const [isoId, setIsoId] = useState('');
  const [password, setPassword] = useState<RescuePassword>();
  const [problem, setProblem] = useState<Problem>();
  const path = { params: { path: { id: server.id } } };

  useEffect(() => {
    void outcome(api.GET('/v1/isos', { params: { query: { instanceId: server.id } } })).then((a) => {
      if (!a.ok) return;
      setIsos(a.data);
      setIsoId((current) => current || (a.data[0]?.id ?? ''));
    });
  }, [server.id, revision]);

  const run = async (call: Parameters<Accept>[0]) => {
    setProblem(undefined);
    setProblem(await accept(call));
  };
  const reveal = async () => {
    setProblem(undefined);
    const answer = await outcome(api.POST('/v1/instances/{id}/rescue/reveal', path));
    if (answer.ok) setPassword(answer.data);
    else setProblem(answer.problem);
  };

  return (
    <div class="panel" aria-labelledby="rescue-iso-heading">
      <h2 id="rescue-iso-heading">Rescue and ISO</h2>
      <dl class="facts">
        <dt>CD-ROM</dt>
        <dd>{server.iso?.name ?? 'empty'}</dd>
        <dt>Boots from</dt>
        <dd>{server.bootFirst === 'cdrom' ? 'CD-ROM first' : 'disk first'}</dd>
        <dt>Rescue</dt>
        <dd>{server.rescue ? `since ${when(server.rescue.since)}` : 'off'}</dd>
      </dl>
      {server.rescue ? (
        <>
          <p>The server runs the rescue system with its disk attached. Log in as root with the rescue password, on the console or over SSH.</p>
          {password ? (
            <ShownOnce label="Rescue password" value={password.password} />
          ) : (
            <button type="button" onClick={reveal}>
              Reveal rescue password
            </button>
          )}
          <button type="button" class="secondary" onClick={() => run(() => outcome(api.DELETE('/v1/instances/{id}/rescue', path)))}>
            Leave rescue
          </button>
        </>
      ) : (
        <>
          <form class="inline" onSubmit={(e) => (e.preventDefault(), void run(() => outcome(api.POST('/v1/instances/{id}/iso', { ...path, body: { isoId } }))))}>
            <label for="iso-choice">ISO</label>
            <select id="iso-choice" value={isoId} onChange={(e) => setIsoId(e.currentTarget.value)} disabled={isos.length === 0}>
              {isos.length === 0 && <option value="">none offered here</option>}
              {isos.map((iso) => (
                <option value={iso.id}>{iso.name}</option>
              ))}
            </select>
            <button type="submit" disabled={!isoId}>
              Mount
            </button>
            <button type="button" class="secondary" disabled={!server.iso} onClick={() => run(() => outcome(api.DELETE('/v1/instances/{id}/iso', path)))}>
              Eject
            </button>
          </form>
          <div class="actions" role="group" aria-label="Boot order">
            <button type="button" class="secondary" onClick={() => run(() => outcome(api.POST('/v1/instances/{id}/boot-order', { ...path, body: { first: 'cdrom' } })))}>
              Boot from CD-ROM first
            </button>
            <button type="button" class="secondary" onClick={() => run(() => outcome(api.POST('/v1/instances/{id}/boot-order', { ...path, body: { first: 'disk' } })))}>
              Boot from disk first
            </button>
          </div>
          <p class="hint">A boot order takes effect at the next reboot; a mounted ISO is in the drive at once.</p>
          <button type="button" onClick={() => run(() => outcome(api.POST('/v1/instances/{id}/rescue', path)))}>
            Boot into rescue
          </button>
        </>
      )}
      <ConsoleControl instanceId={server.id} label="Rescue system screen" />
      <Alert problem={problem} />
    </div>
  );
}
