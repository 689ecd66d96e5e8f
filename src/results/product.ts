/**
 * How every output names the server a result measured: the store, and where the server was not
 * the store's own product, what it was. A stand-in (docbench's local substitute) and a compatible
 * product (FerretDB or DocumentDB on MongoDB's protocol, Cloudant on CouchDB's) are both named in
 * every label, so no table, chart or cell shows their figures as the store's product's, and
 * results of different products never share a cell (report/groups.ts keys cells by the label).
 */
import type { StoreInfo } from './schema.ts';

type Named = Pick<StoreInfo, 'name' | 'standIn' | 'compatible'>;
type Compatible = NonNullable<StoreInfo['compatible']>;

/** `FerretDB v1.24.2`, or the product alone when it does not tell its version. */
export function compatibleProduct(c: Compatible): string {
  return c.version === 'unknown' ? c.product : `${c.product} ${c.version}`;
}

/** `MongoDB-compatible, not MongoDB`: the note's lead, before its colon. */
export function compatibleWords(c: Compatible): string {
  const colon = c.note.indexOf(':');
  return colon > 0 ? c.note.slice(0, colon) : c.note;
}

/** ` (stand-in: SecantusDB)`, ` (FerretDB v1.24.2, MongoDB-compatible, not MongoDB)`, or nothing. */
export function productSuffix(s: Named): string {
  if (s.standIn) return ` (stand-in: ${s.standIn.name})`;
  if (s.compatible) return ` (${compatibleProduct(s.compatible)}, ${compatibleWords(s.compatible)})`;
  return '';
}

/** The store as every label names it: `redis`, `mongodb (stand-in: SecantusDB)`, `mongodb (FerretDB v1.24.2, …)`. */
export function storeWithProduct(s: Named): string {
  return `${s.name}${productSuffix(s)}`;
}

/** A shorter label for narrow table columns: `mongodb (stand-in)`, `mongodb (FerretDB v1.24.2)`. */
export function storeShort(s: Named): string {
  if (s.standIn) return `${s.name} (stand-in)`;
  if (s.compatible) return `${s.name} (${compatibleProduct(s.compatible)})`;
  return s.name;
}

/** One line per compatible product among the results, for the lines under a table; empty when none. */
export function compatibleLines(stores: readonly Named[]): string[] {
  const lines = new Map<string, string>();
  for (const s of stores)
    if (s.compatible)
      lines.set(
        `${s.name} ${s.compatible.product} ${s.compatible.version}`,
        `${s.name}: figures come from ${compatibleProduct(s.compatible)}, ${s.compatible.note}`,
      );
  return [...lines.values()];
}
