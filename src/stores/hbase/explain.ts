/**
 * HBase's account of a scan. HBase has no EXPLAIN and the REST gateway sends no scan metrics, so
 * the evidence is what the scan asked for (table, row range, filter, limit: all a region server
 * does is walk that range in row-key order and run the filter on each row) and two counts:
 *   returned      rows the scan itself returned (it is run again);
 *   rows scanned  rows the region server walked: the same range counted by a key-only scan
 *                 (`KeyOnlyFilter() AND FirstKeyOnlyFilter()`, one key per row, no values).
 *                 A scan cut short by its limit stops at its last returned row, so the range
 *                 counted then ends there.
 * A scan bounded by row keys is a key-range read (`key`); one over the whole table, a `scan`.
 * Dialects reading an index table they maintain mark the plan as `index`.
 */
import type { PlanEvidence } from '../query-plan.ts';
import type { HbaseHandle, ScanRequest } from './handle.ts';

export type ScanPlan = PlanEvidence & { rowsScanned: number };

export const PLAN_SOURCE =
  'HBase has no EXPLAIN: the scan as sent (table, row range, filter), rows returned, and rows scanned counted by a key-only scan of the same range';

const KEY_ONLY = 'KeyOnlyFilter() AND FirstKeyOnlyFilter()';

/** The smallest row key after `key` (a range that ends just past it). */
const after = (key: string) => `${key}\u0000`;

export function describeScan(handle: HbaseHandle, table: string, request: ScanRequest): string {
  const range = `[${request.startRow === undefined ? 'table start' : JSON.stringify(request.startRow)}, ${request.stopRow === undefined ? 'table end' : JSON.stringify(request.stopRow)})`;
  const parts = [`scan ${handle.qualified(table)} rows ${range}`];
  if (request.columns?.length) parts.push(`columns ${request.columns.join(',')}`);
  if (request.filter) parts.push(`filter ${request.filter}`);
  if (request.limit !== undefined) parts.push(`limit ${request.limit}`);
  return parts.join('; ');
}

export async function explainScan(handle: HbaseHandle, table: string, request: ScanRequest): Promise<ScanPlan> {
  const rows = await handle.scan(table, request);
  const cutShort = request.limit !== undefined && rows.length >= request.limit && rows.length > 0;
  const stopRow = cutShort ? after(rows.at(-1)!.key) : request.stopRow;
  const walked = await handle.scan(table, {
    ...(request.startRow !== undefined ? { startRow: request.startRow } : {}),
    ...(stopRow !== undefined ? { stopRow } : {}),
    filter: KEY_ONLY,
  });
  const bounded = request.startRow !== undefined || request.stopRow !== undefined;
  return {
    access: bounded ? 'key' : 'scan',
    used: [bounded ? `${handle.qualified(table)} (row-key range)` : `${handle.qualified(table)} (every row)`],
    documentsExamined: walked.length,
    rowsScanned: walked.length,
    returned: rows.length,
    warnings: [],
    source: PLAN_SOURCE,
    raw: `${describeScan(handle, table, request)}: ${walked.length} rows scanned, ${rows.length} returned`,
  };
}
