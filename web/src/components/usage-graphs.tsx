import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../clients/typescript/index';
import { api, outcome } from '../api';
import { bytes, describeSeries, linePath, percent, perSecond, scaleTop, type Series } from '../lib/chart';
import type { Problem } from '../lib/problems';
import { Alert, Loading } from './ui';

type Metrics = components['schemas']['InstanceMetrics'];
type Point = Metrics['points'][number];
type Timeframe = Metrics['timeframe'];

const TIMEFRAMES: { value: Timeframe; label: string }[] = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
];
const WIDTH = 300;
const HEIGHT = 110;

interface GraphSpec {
  key: string;
  title: string;
  series: (points: Point[]) => Series[];
  /** The top of the scale: fixed (CPU at 100 %, memory at what the server has) or from the values. */
  top: (points: Point[], series: Series[]) => number;
  format: (value: number) => string;
}

type Rate = 'netInBytesPerSecond' | 'netOutBytesPerSecond' | 'diskReadBytesPerSecond' | 'diskWriteBytesPerSecond';

/** Two rates in bytes per second on one scale. */
const ratesGraph = (key: string, title: string, ...lines: [string, Rate][]): GraphSpec => ({
  key,
  title,
  series: (p) => lines.map(([name, rate]) => ({ name, values: p.map((x) => x[rate]) })),
  top: (_p, s) => scaleTop(s),
  format: perSecond,
});

const GRAPHS: GraphSpec[] = [
  { key: 'cpu', title: 'CPU', series: (p) => [{ name: 'CPU', values: p.map((x) => x.cpu) }], top: () => 1, format: percent },
  {
    key: 'memory',
    title: 'Memory',
    series: (p) => [{ name: 'Used', values: p.map((x) => x.memoryBytes) }],
    top: (p, s) => Math.max(0, ...p.map((x) => x.memoryTotalBytes ?? 0)) || scaleTop(s),
    format: bytes,
  },
  ratesGraph('network', 'Network', ['In', 'netInBytesPerSecond'], ['Out', 'netOutBytesPerSecond']),
  ratesGraph('disk', 'Disk I/O', ['Read', 'diskReadBytesPerSecond'], ['Write', 'diskWriteBytesPerSecond']),
];

/** One graph as inline SVG, named by its title and described in words (shown, and read by assistive technology); the legend does not rely on colour. */
function Graph({ spec, points }: { spec: GraphSpec; points: Point[] }) {
  const series = spec.series(points);
  const top = spec.top(points, series);
  const description = describeSeries(series, spec.format);
  const id = `graph-${spec.key}`;
  return (
    <figure class="graph" data-graph={spec.key}>
      <figcaption id={`${id}-title`}>{spec.title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 14}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <line class="grid" x1="0" x2={WIDTH} y1="0" y2="0" />
        <line class="grid" x1="0" x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} />
        <line class="axis" x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} />
        {series.map((s, i) => (
          <path class={`line line-${i}`} d={linePath(s.values, WIDTH, HEIGHT, top)} />
        ))}
        <text class="scale" x="2" y="10">
          {spec.format(top)}
        </text>
        <text class="scale" x="2" y={HEIGHT + 12}>
          0
        </text>
      </svg>
      <p class="legend" aria-hidden="true">
        {series.map((s, i) => (
          <span class={`key key-${i}`}>{s.name}</span>
        ))}
      </p>
      <p class="hint" id={`${id}-desc`}>
        {description}
      </p>
    </figure>
  );
}

/** CPU, memory, network and disk I/O of the server over the last hour, day or week. */
export function UsageGraphs({ id, revision }: { id: string; revision: number }) {
  const [timeframe, setTimeframe] = useState<Timeframe>('hour');
  const [metrics, setMetrics] = useState<Metrics>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    void outcome(api.GET('/v1/instances/{id}/metrics', { params: { path: { id }, query: { timeframe } } })).then((answer) => {
      if (answer.ok) setMetrics(answer.data);
      else setProblem(answer.problem);
    });
  }, [id, timeframe, revision]);
  const measured = metrics?.points.some((point) => point.cpu !== null);
  return (
    <div class="panel" id="usage">
      <div class="heading-row">
        <h2>Usage</h2>
        <div class="actions" role="group" aria-label="Time frame">
          {TIMEFRAMES.map((frame) => (
            <button type="button" class={frame.value === timeframe ? '' : 'secondary'} aria-pressed={frame.value === timeframe} onClick={() => setTimeframe(frame.value)}>
              {frame.label}
            </button>
          ))}
        </div>
      </div>
      <Alert problem={problem} />
      {!metrics && !problem && <Loading what="the usage" />}
      {metrics && !measured && <p class="muted">Nothing measured in this time: the server was not running, or not created yet.</p>}
      {metrics && measured && (
        <div class="graphs" data-timeframe={metrics.timeframe}>
          {GRAPHS.map((spec) => (
            <Graph spec={spec} points={metrics.points} />
          ))}
        </div>
      )}
    </div>
  );
}
