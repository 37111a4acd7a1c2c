import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { AppError } from '../../domain/errors';
import type { Principal } from '../../services/principal';
import { allUsageRecords, checkedRange, usagePage, type UsageCursor, type UsageRecord } from '../../services/usage-records';
import type { ApiDeps } from '../deps';
import { principal } from '../auth';
import { parseQuery, send } from '../http';
import { registerRoute } from '../openapi';
import { USAGE_RECORD_COLUMNS, usageRecordsQuery, usageRecordView } from '../schemas/usage-records';

const description =
  'One record per server per UTC hour of its life in the range (a resize within an hour splits it into two parts at that moment). JSON pages are in server and hour order, `meta.nextCursor` while more remain; `Accept: text/csv` (or `format=csv`) answers every record of the range as CSV with the same columns, in the same order (header: ' +
  `\`${USAGE_RECORD_COLUMNS.join(',')}\`). Bytes are exact integers. Records of hours the sampler has not closed yet are \`open\`; the others never change.`;
registerRoute({ method: 'get', path: '/v1/admin/usage', summary: 'Usage records of every tenant (or one), for billing', description, tags: ['usage'], admin: true, request: { query: usageRecordsQuery }, response: usageRecordView, list: true });
registerRoute({ method: 'get', path: '/v1/usage', summary: "Your tenant's usage records, for billing", description, tags: ['usage'], request: { query: usageRecordsQuery.omit({ tenantId: true }) }, response: usageRecordView, list: true });

const toView = (r: UsageRecord): z.infer<typeof usageRecordView> => ({
  hour: r.hour.toISOString(),
  part: r.part,
  instanceId: r.instanceId,
  tenantId: r.tenantId,
  hostname: r.hostname,
  planId: r.planId,
  planName: r.planName,
  seconds: r.seconds,
  state: r.state,
  addresses: r.addresses,
  inBytes: Number(r.inBytes),
  outBytes: Number(r.outBytes),
  backupBytes: Number(r.backupBytes),
  snapshotCount: r.snapshotCount,
  open: r.open,
});

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvField = (value: string | number | boolean) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const encodeCursor = (c: UsageCursor) => Buffer.from(JSON.stringify([c.instanceId, c.hour.toISOString(), c.part])).toString('base64url');

function decodeCursor(text: string): UsageCursor {
  try {
    const [instanceId, hour, part] = JSON.parse(Buffer.from(text, 'base64url').toString()) as [string, string, number];
    const cursor = { instanceId: String(instanceId), hour: new Date(hour), part: Number(part) };
    if (!Number.isNaN(cursor.hour.getTime()) && Number.isInteger(cursor.part)) return cursor;
  } catch {
    // answered below
  }
  throw new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { cursor: 'not a cursor of this list' } });
}

async function answer(deps: ApiDeps, who: Principal, req: Request, res: Response): Promise<void> {
  const query = parseQuery(usageRecordsQuery, req);
  if (query.tenantId && who.role !== 'admin') throw new AppError('INVALID_INPUT', 'The query is invalid.', { fields: { tenantId: 'unknown field' } });
  const range = { ...checkedRange(new Date(query.from), new Date(query.to)), ...(query.tenantId ? { tenantId: query.tenantId } : {}) };
  const csv = query.format === 'csv' || (query.format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv');
  if (!csv) {
    const page = await usagePage(deps, who, range, query.limit, query.cursor ? decodeCursor(query.cursor) : undefined);
    send(res, page.records.map(toView), page.next ? { nextCursor: encodeCursor(page.next) } : {});
    return;
  }
  res.status(200).type('text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="usage-${query.from.slice(0, 13)}-${query.to.slice(0, 13)}.csv"`);
  res.write(`${USAGE_RECORD_COLUMNS.join(',')}\n`);
  let lines: string[] = [];
  for await (const record of allUsageRecords(deps, who, range)) {
    const view = toView(record);
    lines.push(USAGE_RECORD_COLUMNS.map((column) => csvField(view[column])).join(','));
    if (lines.length >= 1_000) {
      // Backpressure: a slow reader holds the export, not the process's memory.
      if (!res.write(`${lines.join('\n')}\n`)) await new Promise((resolve) => res.once('drain', resolve));
      lines = [];
    }
  }
  res.end(lines.length > 0 ? `${lines.join('\n')}\n` : '');
}

export const usageRecordsRouter = (deps: ApiDeps): Router => Router().get('/usage', (req, res) => answer(deps, principal(req), req, res));
export const adminUsageRecordsRouter = (deps: ApiDeps): Router => Router().get('/usage', (req, res) => answer(deps, principal(req), req, res));
