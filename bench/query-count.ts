/**
 * SQL statements counted on the client side: every `pg` Client query of this process (Prisma's
 * adapter goes through it), grouped by statement text with literals and parameters blanked.
 * The bench's own connections (application_name {@link UNCOUNTED_APPLICATION}) are left out.
 * Processes of their own are not counted.
 */
import pg from 'pg';

export const UNCOUNTED_APPLICATION = 'pvecp-bench';

export type Counts = Map<string, number>;

/** `SELECT … WHERE id = $1 AND n IN (1, 2)` and its siblings become one statement. */
export function normaliseStatement(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/\b\d+\b/g, '?')
    .replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(…)')
    .replace(/\s+/g, ' ')
    .trim();
}

const counts: Counts = new Map();
let installed = false;

/** Wraps pg.Client.prototype.query once; call before any API or worker makes its pool. */
export function countQueries(): void {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function countedQuery(this: pg.Client & { connectionParameters?: { application_name?: string } }, ...args: unknown[]) {
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && this.connectionParameters?.application_name !== UNCOUNTED_APPLICATION) {
      const statement = normaliseStatement(text);
      counts.set(statement, (counts.get(statement) ?? 0) + 1);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

/** The counts so far (a copy). */
export const snapshot = (): Counts => new Map(counts);

/** What was counted between two snapshots. */
export function between(before: Counts, after: Counts): Counts {
  const out: Counts = new Map();
  for (const [statement, n] of after) {
    const d = n - (before.get(statement) ?? 0);
    if (d > 0) out.set(statement, d);
  }
  return out;
}

export const total = (c: Counts) => [...c.values()].reduce((a, b) => a + b, 0);

export interface StatementCount {
  statement: string;
  count: number;
}

export interface QueryCounts {
  /** Why nothing was counted (APIs and workers in processes of their own). */
  skipped?: string;
  /** Statements per create in phase (a): the API alone. */
  perCreate?: { total: number; top: StatementCount[] };
  /**
   * Statements per provision in phase (b): API and worker, minus each create's share as
   * measured in phase (a) (`createsSubtracted` false when phase (a) did not run).
   */
  perProvision?: { total: number; createsSubtracted: boolean; top: StatementCount[] };
}

const TOP = 10;
const per = (n: number, units: number) => Math.round((n / units) * 100) / 100;

function top(c: Map<string, number>): StatementCount[] {
  return [...c]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([statement, count]) => ({ statement, count }));
}

/** Per unit of work: `creates` creates counted in `a`, `provisions` provisions (with their creates) in `b`. */
export function queryCounts(a: { counts: Counts; creates: number } | null, b: { counts: Counts; provisions: number } | null): QueryCounts {
  const out: QueryCounts = {};
  const perCreate = new Map<string, number>();
  if (a) {
    for (const [statement, n] of a.counts) perCreate.set(statement, n / a.creates);
    out.perCreate = { total: per(total(a.counts), a.creates), top: top(new Map([...perCreate].map(([s, n]) => [s, per(n, 1)]))) };
  }
  if (b) {
    const perProvision = new Map<string, number>();
    for (const [statement, n] of b.counts) perProvision.set(statement, per(n / b.provisions - (perCreate.get(statement) ?? 0), 1));
    out.perProvision = { total: per(total(b.counts) - b.provisions * (out.perCreate?.total ?? 0), b.provisions), createsSubtracted: a !== null, top: top(perProvision) };
  }
  return out;
}
