/**
 * YCSB workload properties: the exact names and defaults of YCSB 0.17.0's CoreWorkload and
 * Client, validated with zod. A YCSB `.properties` file is accepted unchanged; `-p k=v`
 * overrides are applied on top, in order, exactly like YCSB's command line.
 *
 * Pure module (no Node APIs): the k6 scripts bundle it too. File reading lives in
 * `workload-file.ts`.
 */
import { z } from 'zod';
import { closestName } from '../common/suggest.ts';
import { UserError } from '../common/user-error.ts';
import { SETTINGS_PREFIXES } from '../stores/stores.ts';

/** Thrown for any bad workload input; its message names the file/key and what was expected. */
export class WorkloadError extends UserError {}

const DISTRIBUTIONS = ['uniform', 'zipfian', 'latest', 'hotspot', 'exponential', 'sequential'] as const;
const FIELD_LENGTH_DISTRIBUTIONS = ['constant', 'uniform', 'zipfian'] as const;
const SCAN_LENGTH_DISTRIBUTIONS = ['uniform', 'zipfian'] as const;

const integer = (min: number) => z.coerce.number().int().min(min);
const proportion = z.coerce.number().min(0).max(1);
const boolString = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false']))
  .transform((v) => v === 'true');

/**
 * Every property docbench understands, with YCSB's defaults. Values arrive as strings
 * (as in a `.properties` file) and are coerced and range-checked here.
 * Where docbench differs from YCSB the comment says so and why.
 */
export const workloadPropertiesSchema = z
  .object({
    // --- Client ---
    recordcount: integer(0).default(0),
    operationcount: integer(0).default(0),
    threadcount: integer(1).default(1),
    /** Target ops/s for the whole run (0 = as fast as possible). */
    target: z.coerce.number().min(0).default(0),
    /** Seconds; 0 = no limit. */
    maxexecutiontime: integer(0).default(0),
    /** Seconds between status lines on stderr. */
    'status.interval': integer(1).default(10),

    // --- CoreWorkload ---
    table: z.string().min(1).default('usertable'),
    fieldcount: integer(1).default(10),
    fieldnameprefix: z.string().default('field'),
    fieldlength: integer(1).default(100),
    minfieldlength: integer(1).default(1),
    fieldlengthdistribution: z.enum(FIELD_LENGTH_DISTRIBUTIONS).default('constant'),
    readallfields: boolString.default(true),
    writeallfields: boolString.default(false),
    dataintegrity: boolString.default(false),
    readproportion: proportion.default(0.95),
    updateproportion: proportion.default(0.05),
    insertproportion: proportion.default(0),
    scanproportion: proportion.default(0),
    readmodifywriteproportion: proportion.default(0),
    requestdistribution: z.enum(DISTRIBUTIONS).default('uniform'),
    insertorder: z.enum(['hashed', 'ordered']).default('hashed'),
    zeropadding: integer(1).default(1),
    insertstart: integer(0).default(0),
    /** Defaults to recordcount - insertstart (resolved below). */
    insertcount: integer(0).optional(),
    hotspotdatafraction: proportion.default(0.2),
    hotspotopnfraction: proportion.default(0.8),
    'exponential.percentile': z.coerce.number().gt(0).lt(100).default(95),
    'exponential.frac': z.coerce.number().gt(0).max(1).default(0.8571428571),
    minscanlength: integer(1).default(1),
    maxscanlength: integer(1).default(1000),
    scanlengthdistribution: z.enum(SCAN_LENGTH_DISTRIBUTIONS).default('uniform'),

    // --- Measurement (YCSB's names) ---
    /**
     * `op`: service time only; `intended`: intended-start time only; `both`: both rows.
     * docbench defaults to `both` (YCSB: `op`) so a throttled run always shows
     * coordinated-omission-corrected latency next to service time.
     */
    'measurement.interval': z.enum(['op', 'intended', 'both']).default('both'),
    /** Percentiles printed per operation. YCSB's default is `95,99`; docbench prints more. */
    'hdrhistogram.percentiles': z
      .string()
      .default('50,95,99,99.9')
      .transform((v, ctx) => {
        const values = v.split(',').map((s) => Number(s.trim()));
        if (values.some((p) => !Number.isFinite(p) || p <= 0 || p > 100)) {
          ctx.addIssue({ code: 'custom', message: 'expected a comma-separated list of percentiles in (0, 100]' });
          return z.NEVER;
        }
        return values;
      }),

    // --- docbench additions ---
    /** Seed of every random choice; the same seed gives the same operation sequence. */
    seed: integer(0).default(1),
    /** Seconds at the start of the run phase excluded from statistics. */
    warmuptime: integer(0).default(0),
    /**
     * Records per bulk write in the load phase, for stores that have one (`insertMany`).
     * YCSB's bindings default to 1; docbench loads in batches of 100 unless told otherwise.
     */
    batchsize: integer(1).default(100),
  })
  .strict();

export type WorkloadProperties = z.output<typeof workloadPropertiesSchema> & {
  insertcount: number;
  /** Store- and tool-specific properties (`redis.*`, `cassandra.*`, `db`, …) kept verbatim. */
  passthrough: Record<string, string>;
};

/** Raw properties as read: key -> string value, plus where each key came from (for messages). */
export interface RawProperties {
  values: Map<string, string>;
  origin: Map<string, string>;
}

/**
 * Keys YCSB files carry that docbench accepts and keeps but does not interpret itself:
 * the workload class, the binding name, exporters and Java-only measurement knobs.
 */
const IGNORED_YCSB_KEYS = new Set([
  'workload',
  'db',
  'exporter',
  'exportfile',
  'measurementtype',
  'measurement.trackjvm',
  'measurement.raw.output_file',
  'measurement.raw.no_summary',
  'histogram.buckets',
  'hdrhistogram.fileoutput',
  'hdrhistogram.output.path',
  'timeseries.granularity',
  'fieldlengthhistogram',
  'core_workload_insertion_retry_limit',
  'core_workload_insertion_retry_interval',
  'readallfieldsbyname',
  'dotransactions',
  'maxexecutiontime.warmup',
]);

/** Prefixes of store settings, passed to the store untouched (each store checks its own). */
const PASSTHROUGH_PREFIXES = SETTINGS_PREFIXES;

/** Parse the text of a Java `.properties` file (the subset YCSB files use, plus escapes and continuations). */
export function parsePropertiesText(text: string, origin: string, into?: RawProperties): RawProperties {
  const raw = into ?? { values: new Map<string, string>(), origin: new Map<string, string>() };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const firstLine = i + 1;
    // A trailing odd number of backslashes continues the logical line.
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < lines.length) {
      line = line.slice(0, -1) + lines[++i]!.replace(/^\s+/, '');
    }
    const match = /^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$/.exec(line) ?? /^((?:\\.|[^=:\s\\])+)$/.exec(line);
    if (!match) throw new WorkloadError(`${origin}:${firstLine}: cannot read "${line}"; expected key=value`);
    const key = unescape(match[1]!);
    const value = unescape(match[2] ?? '').trim();
    raw.values.set(key, value);
    raw.origin.set(key, `${origin}:${firstLine}`);
  }
  return raw;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  });
}

/** Apply one `-p key=value` override. */
export function applyOverride(raw: RawProperties, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new WorkloadError(`-p ${assignment}: expected key=value`);
  const key = assignment.slice(0, eq).trim();
  raw.values.set(key, assignment.slice(eq + 1).trim());
  raw.origin.set(key, `-p ${key}`);
}

const KNOWN_KEYS = Object.keys(workloadPropertiesSchema.shape);

/** Validate raw properties into typed workload properties; every failure names its key and origin. */
export function resolveProperties(raw: RawProperties): WorkloadProperties {
  const known: Record<string, string> = {};
  const passthrough: Record<string, string> = {};
  for (const [key, value] of raw.values) {
    if (KNOWN_KEYS.includes(key)) known[key] = value;
    else if (IGNORED_YCSB_KEYS.has(key) || PASSTHROUGH_PREFIXES.some((p) => key.startsWith(p))) passthrough[key] = value;
    else {
      const hint = closestKey(key);
      throw new WorkloadError(
        `${raw.origin.get(key) ?? key}: unknown property "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
      );
    }
  }
  const parsed = workloadPropertiesSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    throw new WorkloadError(
      `${raw.origin.get(key) ?? key}: property "${key}" = "${known[key] ?? ''}" is invalid: ${describeIssue(issue)}`,
    );
  }
  const p = parsed.data;
  const where = (key: string) => raw.origin.get(key) ?? 'defaults';

  const total =
    p.readproportion + p.updateproportion + p.insertproportion + p.scanproportion + p.readmodifywriteproportion;
  if (total <= 0) {
    throw new WorkloadError(
      `operation proportions sum to 0 (readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion); at least one must be > 0`,
    );
  }
  if (Math.abs(total - 1) > 1e-6) {
    throw new WorkloadError(
      `operation proportions sum to ${+total.toFixed(6)}, expected 1 ` +
        `(read=${p.readproportion} from ${where('readproportion')}, update=${p.updateproportion} from ${where('updateproportion')}, ` +
        `insert=${p.insertproportion}, scan=${p.scanproportion}, readmodifywrite=${p.readmodifywriteproportion})`,
    );
  }
  if (p.minfieldlength > p.fieldlength) {
    throw new WorkloadError(`${where('minfieldlength')}: minfieldlength (${p.minfieldlength}) exceeds fieldlength (${p.fieldlength})`);
  }
  if (p.minscanlength > p.maxscanlength) {
    throw new WorkloadError(`${where('minscanlength')}: minscanlength (${p.minscanlength}) exceeds maxscanlength (${p.maxscanlength})`);
  }
  if (p.dataintegrity && p.fieldlengthdistribution !== 'constant') {
    throw new WorkloadError(
      `${where('dataintegrity')}: dataintegrity=true requires fieldlengthdistribution=constant (as in YCSB), got ${p.fieldlengthdistribution}`,
    );
  }
  const insertcount = p.insertcount ?? Math.max(0, p.recordcount - p.insertstart);
  if (p.insertstart + insertcount > p.recordcount && p.recordcount > 0) {
    throw new WorkloadError(
      `${where('insertcount')}: insertstart (${p.insertstart}) + insertcount (${insertcount}) exceeds recordcount (${p.recordcount})`,
    );
  }
  return { ...p, insertcount, passthrough };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => String(v)).join(', ')}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'too_small') return `expected a value >= ${String(issue.minimum)}`;
  if (issue.code === 'too_big') return `expected a value <= ${String(issue.maximum)}`;
  return issue.message;
}

/** The known key nearest to a misspelt one, for "did you mean". */
function closestKey(key: string): string | undefined {
  return closestName(key, [...KNOWN_KEYS, ...IGNORED_YCSB_KEYS]);
}

/** Parse properties text plus overrides in one call (used by tests and k6 scripts). */
export function workloadFromText(text: string, origin: string, overrides: readonly string[] = []): WorkloadProperties {
  const raw = parsePropertiesText(text, origin);
  for (const o of overrides) applyOverride(raw, o);
  return resolveProperties(raw);
}
