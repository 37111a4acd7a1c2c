import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { bytes, describeSeries, linePath, scaleTop } from '../lib/chart';
import { when } from '../lib/format';
import type { Problem } from '../lib/problems';
import { Alert, Loading } from './ui';

type Traffic = components['schemas']['InstanceTraffic'];

const WIDTH = 300;
const HEIGHT = 110;
const COUNTED: Record<Traffic['counted'], string> = { out: 'outbound', 'in+out': 'inbound and outbound', max: 'the larger direction' };

/** The billing period's traffic: a bar against the allowance and a day-by-day graph. */
export function TrafficPanel({ id, revision }: { id: string; revision: number }) {
  const [traffic, setTraffic] = useState<Traffic>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    void outcome(api.GET('/v1/instances/{id}/traffic', { params: { path: { id }, query: { period: 'current' } } })).then((answer) => {
      if (answer.ok) setTraffic(answer.data);
      else setProblem(answer.problem);
    });
  }, [id, revision]);
  if (!traffic) return <div class="panel" id="traffic"><h2>Traffic</h2>{problem ? <Alert problem={problem} /> : <Loading what="the traffic" />}</div>;
  const series = [
    { name: 'In', values: traffic.daily.map((day) => day.inBytes) },
    { name: 'Out', values: traffic.daily.map((day) => day.outBytes) },
  ];
  const top = scaleTop(series);
  const used = Math.min(100, traffic.percent ?? 0);
  const period = `${traffic.period.start.slice(0, 10)} to ${traffic.period.end.slice(0, 10)}`;
  return (
    <div class="panel" id="traffic">
      <h2>Traffic</h2>
      <p>
        {bytes(traffic.countedBytes)} {COUNTED[traffic.counted]} counted
        {traffic.allowanceBytes === null ? ', unmetered' : ` of ${bytes(traffic.allowanceBytes)} (${traffic.percent ?? 0}%)`} in the period {period}. In {bytes(traffic.inBytes)}, out{' '}
        {bytes(traffic.outBytes)}.
      </p>
      {traffic.allowanceBytes !== null && <meter class="traffic-bar" aria-label="Allowance used" min={0} max={100} low={80} high={99.9} optimum={0} value={used} data-percent={traffic.percent ?? 0} />}
      {traffic.throttle && (
        <p role="status">
          <strong>Throttled</strong> to {traffic.throttle.mbps} Mbit/s since {when(traffic.throttle.since)}, until the period ends.
        </p>
      )}
      <div class="graphs">
        <figure class="graph" data-graph="traffic-daily">
          <figcaption id="graph-traffic-title">Per day</figcaption>
          <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 14}`} role="img" aria-labelledby="graph-traffic-title" aria-describedby="graph-traffic-desc">
            <line class="grid" x1="0" x2={WIDTH} y1="0" y2="0" />
            <line class="axis" x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} />
            {series.map((s, i) => (
              <path class={`line line-${i}`} d={linePath(s.values, WIDTH, HEIGHT, top)} />
            ))}
            <text class="scale" x="2" y="10">
              {bytes(top)}
            </text>
          </svg>
          <p class="legend" aria-hidden="true">
            {series.map((s, i) => (
              <span class={`key key-${i}`}>{s.name}</span>
            ))}
          </p>
          <p class="hint" id="graph-traffic-desc">
            {describeSeries(series, bytes)}
          </p>
        </figure>
      </div>
      <p class="hint">Counted {traffic.sampledAt ? `up to ${when(traffic.sampledAt)}` : 'from the first reading, within minutes'}.</p>
    </div>
  );
}
