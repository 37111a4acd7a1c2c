import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { Alert, Field, ShownOnce, Table, described } from '../components/ui';
import { when } from '../lib/format';
import { placeProblem, type PlacedProblem, type Problem } from '../lib/problems';

type Webhook = components['schemas']['Webhook'];
type Delivery = components['schemas']['WebhookDelivery'];

/** A tenant's webhook endpoints: register one (its signing secret shown once), read its deliveries, redeliver. */
export function Webhooks() {
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string>();
  const [placed, setPlaced] = useState<PlacedProblem>({ fields: {} });
  const [open, setOpen] = useState<string>();
  const load = () => void outcome(api.GET('/v1/webhooks')).then((a) => a.ok && setHooks(a.data));
  useEffect(load, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const answer = await outcome(api.POST('/v1/webhooks', { body: { url, eventTypes: [] } }));
    if (!answer.ok) return setPlaced(placeProblem(answer.problem, ['url']));
    setPlaced({ fields: {} });
    setSecret(answer.data.secret);
    setUrl('');
    load();
  };

  return (
    <div class="panel">
      <h2>Webhooks</h2>
      <form onSubmit={create} noValidate class="narrow">
        <Field id="webhook-url" label="Endpoint URL" error={placed.fields.url} hint="Receives every event of your servers, signed with its secret.">
          <input {...described('webhook-url', placed.fields.url, 'hint')} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <Alert problem={placed.form} />
        <button type="submit">Add endpoint</button>
      </form>
      {secret && <ShownOnce label="Signing secret" value={secret} />}
      <ul class="hooks">
        {hooks.map((hook) => (
          <li>
            <div class="hook-row">
              <code>{hook.url}</code> <span>{hook.status === 'enabled' ? '● enabled' : `○ disabled${hook.disabledReason ? `: ${hook.disabledReason}` : ''}`}</span>
              <button type="button" class="secondary" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? undefined : hook.id)}>
                Deliveries
              </button>
            </div>
            {open === hook.id && <Deliveries hookId={hook.id} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Deliveries({ hookId }: { hookId: string }) {
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [problem, setProblem] = useState<Problem>();
  const load = () => void outcome(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hookId }, query: { limit: 20 } } })).then((a) => (a.ok ? setDeliveries(a.data) : setProblem(a.problem)));
  useEffect(load, [hookId]);
  const redeliver = async (deliveryId: string) => {
    const answer = await outcome(api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: hookId, deliveryId } } }));
    if (!answer.ok) setProblem(answer.problem);
    load();
  };
  if (!deliveries) return null;
  return (
    <>
      <Alert problem={problem} />
      {deliveries.length === 0 ? (
        <p class="muted">No deliveries yet.</p>
      ) : (
        <Table caption="Deliveries" hiddenCaption columns={['Event', 'State', 'Attempts', 'Last answer', '']}>
            {deliveries.map((d) => (
              <tr>
                <td data-label="Event">
                  {d.eventType} <span class="muted">{when(d.createdAt)}</span>
                </td>
                <td data-label="State">{d.status}</td>
                <td data-label="Attempts">{d.attempts}</td>
                <td data-label="Last answer">{d.lastResponseCode ?? d.lastError ?? '—'}</td>
                <td>
                  <button type="button" class="secondary" onClick={() => redeliver(d.id)}>
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
        </Table>
      )}
    </>
  );
}
