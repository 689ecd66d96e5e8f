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
import { storeOfYcsbBinding, YCSB_BINDINGS } from './ycsb-bindings.ts';
import { SETTINGS_PREFIXES, STORE_NAMES } from '../stores/stores.ts';
import { checkFailoverCheck } from './failover-check-properties.ts';

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

const CORE_WORKLOAD = 'site.ycsb.workloads.CoreWorkload';

/** YCSB's exporter classes (`exporter`), by the format docbench writes for each. */
export const YCSB_EXPORTERS = {
  text: 'site.ycsb.measurements.exporter.TextMeasurementsExporter',
  json: 'site.ycsb.measurements.exporter.JSONMeasurementsExporter',
  'json-array': 'site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter',
} as const;
export type ExportFormat = keyof typeof YCSB_EXPORTERS;

/** The format of an exporter class named in full (site.ycsb or the older com.yahoo.ycsb package) or bare. */
function exportFormatOf(className: string): ExportFormat | undefined {
  const bare = className.replace(/^(site\.ycsb|com\.yahoo\.ycsb)\.measurements\.exporter\./, '');
  const found = Object.entries(YCSB_EXPORTERS).find(([, full]) => full.endsWith(`.${bare}`));
  return found?.[0] as ExportFormat | undefined;
}

/** YCSB's measurement types docbench does not record, each with what to use instead. */
const OTHER_MEASUREMENT_TYPES: Record<string, string> = {
  histogram:
    'docbench records HDR histograms (measurementtype=hdrhistogram, the default); pick the percentiles printed with hdrhistogram.percentiles',
  'hdrhistogram+histogram':
    'docbench records HDR histograms only (measurementtype=hdrhistogram); pick the percentiles printed with hdrhistogram.percentiles',
  'hdrhistogram+raw': 'docbench keeps no raw per-operation latencies; use measurementtype=hdrhistogram (the default)',
  raw: 'docbench keeps no raw per-operation latencies; use measurementtype=hdrhistogram (the default)',
  timeseries:
    'docbench always records a one-second time series in the result file (--out, `timeSeries`) next to its HDR histograms; use measurementtype=hdrhistogram (the default)',
};

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
    /** docbench's: worker processes (threads) the threadcount workers are spread over, or auto (`--processes` wins; session/process-count.ts). */
    processes: z.union([z.string().trim().toLowerCase().pipe(z.literal('auto')), integer(1)]).optional(),
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
    /**
     * docbench's error budget: the run stops (its result written, marked partial) once this
     * fraction of its operations has failed. Not YCSB's; also `-p maxerrorrate=…`, which wins.
     */
    maxerrorrate: proportion.optional(),
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
    /**
     * docbench's, not YCSB's: a scan asks for the records' keys only, no field (Altoros 2022's
     * workload E: `SELECT meta().id …`, `find(…, {_id: 1})`). YCSB's scans read fields.
     */
    scankeysonly: boolString.default(false),
    /**
     * docbench's, not YCSB's: the failover check. Each write's values say which write made them,
     * every acknowledged write is tracked, and after the run every key whose write was
     * acknowledged is read back: a field holding an older write than the last one acknowledged
     * is a lost acknowledged write (runner/acknowledged-writes.ts). Needs dataintegrity=true.
     */
    failovercheck: boolString.default(false),

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

    // --- YCSB's Client keys for the workload class, the binding and the output ---
    /** YCSB's workload class: docbench runs CoreWorkload (application workloads are scenarios). */
    workload: z
      .string()
      .transform((v, ctx) => {
        if (v.replace(/^com\.yahoo\.ycsb\./, 'site.ycsb.') === CORE_WORKLOAD) return CORE_WORKLOAD;
        ctx.addIssue({
          code: 'custom',
          message: `expected ${CORE_WORKLOAD}: docbench runs YCSB's CoreWorkload; application workloads are scenarios (--scenario)`,
        });
        return z.NEVER;
      })
      .default(CORE_WORKLOAD),
    /** YCSB's binding (`db`), as a docbench store name; it must agree with --store. */
    db: z
      .string()
      .transform((v, ctx) => {
        const store = storeOfYcsbBinding(v);
        if (store) return store;
        ctx.addIssue({
          code: 'custom',
          message: `expected a docbench store (${STORE_NAMES.join(', ')}) or one of YCSB's bindings for them (${Object.keys(YCSB_BINDINGS).join(', ')})`,
        });
        return z.NEVER;
      })
      .optional(),
    /** How the measurements are written: YCSB's exporter class, by its name. */
    exporter: z
      .string()
      .transform((v, ctx) => {
        const format = exportFormatOf(v);
        if (format) return format;
        ctx.addIssue({
          code: 'custom',
          message: `expected one of YCSB's exporters: ${Object.values(YCSB_EXPORTERS).join(', ')}`,
        });
        return z.NEVER;
      })
      .default('text'),
    /** Write the measurements to this file instead of stdout, as YCSB does. */
    exportfile: z.string().min(1).optional(),
    /**
     * YCSB's latency recorder. docbench records HDR histograms (YCSB's default, `hdrhistogram`)
     * and nothing else; each other type is refused with what to use instead.
     */
    measurementtype: z
      .string()
      .transform((v, ctx) => {
        if (v === 'hdrhistogram') return v;
        const instead = OTHER_MEASUREMENT_TYPES[v];
        ctx.addIssue({
          code: 'custom',
          message: instead
            ? `not supported: ${instead}`
            : `expected hdrhistogram (YCSB's other types: ${Object.keys(OTHER_MEASUREMENT_TYPES).join(', ')}, are not supported)`,
        });
        return z.NEVER;
      })
      .default('hdrhistogram'),
    /**
     * YCSB's HdrHistogram interval logs: one file per latency row, `<hdrhistogram.output.path><ROW>.hdr`,
     * an interval histogram every `status.interval` seconds (report/hdr-logs.ts).
     */
    'hdrhistogram.fileoutput': boolString.default(false),
    /** Prefix of the log files (a folder ends with `/`), as in YCSB: empty writes them in the working folder. */
    'hdrhistogram.output.path': z.string().default(''),
    /** YCSB's JVM statistics (heap, threads): no meaning for a Node client; accepted and recorded. */
    'measurement.trackjvm': boolString.default(false),

    // --- docbench additions ---
    /** Seed of every random choice; the same seed gives the same operation sequence. */
    seed: integer(0).default(1),
    /** Seconds at the start of the run phase excluded from statistics. */
    warmuptime: integer(0).default(0),
    /**
     * Records per bulk write in the load phase, for stores that have one (`insertMany`). 1, one
     * insert per record, is what YCSB's bindings do and what published load throughputs (Tang &
     * Fan 2016) measure; a larger batch is opt-in, and every result of such a load says so.
     */
    batchsize: integer(1).default(1),
  })
  .strict();

export type WorkloadProperties = z.output<typeof workloadPropertiesSchema> & {
  insertcount: number;
  /** Store settings (`redis.*`, `cassandra.*`, …) and YCSB keys accepted at their "off" value, kept verbatim. */
  passthrough: Record<string, string>;
  /** A part of a sharded run (src/shard/): its run-phase inserts go to recordcount + k·stride + offset. */
  insertKeys?: { stride: number; offset: number };
};

/** Raw properties as read: key -> string value, plus where each key came from (for messages). */
export interface RawProperties {
  values: Map<string, string>;
  origin: Map<string, string>;
}

/**
 * YCSB keys docbench does not implement. Each is refused with what to use instead, never
 * silently ignored; where YCSB's default value means "off", that value is accepted (and
 * recorded), because docbench then does exactly what YCSB does.
 */
const UNSUPPORTED_YCSB_KEYS: Record<string, { accepted?: string; instead: string }> = {
  'measurement.raw.output_file': {
    instead: 'it belongs to measurementtype=raw, which docbench does not support (it records HDR histograms)',
  },
  'measurement.raw.no_summary': {
    instead: 'it belongs to measurementtype=raw, which docbench does not support (it records HDR histograms)',
  },
  'histogram.buckets': {
    instead:
      'it belongs to measurementtype=histogram, which docbench does not support; pick the percentiles printed with hdrhistogram.percentiles',
  },
  'timeseries.granularity': {
    instead:
      'it belongs to measurementtype=timeseries; docbench always records a one-second time series in the result file (--out, `timeSeries`)',
  },
  fieldlengthhistogram: {
    instead:
      'fieldlengthdistribution=histogram is not supported; use constant, uniform or zipfian with fieldlength and minfieldlength',
  },
  core_workload_insertion_retry_limit: {
    accepted: '0',
    instead:
      'docbench does not retry failed inserts: each one is counted (INSERT-FAILED, Return=ERROR) so the failure shows; set 0 or remove it',
  },
  core_workload_insertion_retry_interval: {
    instead: 'it belongs to core_workload_insertion_retry_limit > 0: docbench does not retry failed inserts',
  },
  readallfieldsbyname: {
    accepted: 'false',
    instead:
      'docbench reads all fields by asking for the whole record (readallfieldsbyname=false); set false or remove it',
  },
  dotransactions: {
    instead:
      "docbench takes the phase from its command: `docbench load` or `docbench run` (YCSB's -load and -t work too)",
  },
  'maxexecutiontime.warmup': {
    instead: 'use warmuptime (seconds at the start of the run phase that run but are not recorded)',
  },
};

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
    const unsupported = UNSUPPORTED_YCSB_KEYS[key];
    if (KNOWN_KEYS.includes(key)) known[key] = value;
    else if (unsupported) {
      if (unsupported.accepted !== value.toLowerCase()) {
        throw new WorkloadError(
          `${raw.origin.get(key) ?? key}: property "${key}" = "${value}" is not supported: ${unsupported.instead}`,
        );
      }
      passthrough[key] = value;
    } else if (PASSTHROUGH_PREFIXES.some((p) => key.startsWith(p))) passthrough[key] = value;
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
    throw new WorkloadError(
      `${where('minfieldlength')}: minfieldlength (${p.minfieldlength}) exceeds fieldlength (${p.fieldlength})`,
    );
  }
  if (p.minscanlength > p.maxscanlength) {
    throw new WorkloadError(
      `${where('minscanlength')}: minscanlength (${p.minscanlength}) exceeds maxscanlength (${p.maxscanlength})`,
    );
  }
  if (p.dataintegrity && p.fieldlengthdistribution !== 'constant') {
    throw new WorkloadError(
      `${where('dataintegrity')}: dataintegrity=true requires fieldlengthdistribution=constant (as in YCSB), got ${p.fieldlengthdistribution}`,
    );
  }
  checkFailoverCheck(p, where);
  const insertcount = p.insertcount ?? Math.max(0, p.recordcount - p.insertstart);
  if (p.insertstart + insertcount > p.recordcount && p.recordcount > 0) {
    throw new WorkloadError(
      `${where('insertcount')}: insertstart (${p.insertstart}) + insertcount (${insertcount}) exceeds recordcount (${p.recordcount})`,
    );
  }
  return { ...p, insertcount, passthrough };
}

/**
 * YCSB's `db` names the binding; docbench takes the store from --store, so the two must agree
 * (a file written for one store is not run against another unnoticed).
 */
export function checkDbProperty(p: WorkloadProperties, store: string): void {
  if (p.db !== undefined && p.db !== store) {
    throw new WorkloadError(
      `property "db" names the store ${p.db}, but --store is ${store}; remove db or make the two agree`,
    );
  }
}

/**
 * The note a load's result carries when it used bulk writes, or undefined for one insert per
 * record (YCSB's way). `bulkWrites`: whether the store has them (others always insert one by one).
 */
export function loadBatchingNote(p: WorkloadProperties, bulkWrites: boolean): string | undefined {
  if (!bulkWrites || p.batchsize <= 1) return undefined;
  return `load used bulk writes of ${p.batchsize} records (batchsize=${p.batchsize}; YCSB's bindings insert one record per call): INSERT-BATCH rows count batches, OVERALL counts records, and the load throughput is not comparable with YCSB's`;
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
  return closestName(key, [...KNOWN_KEYS, ...Object.keys(UNSUPPORTED_YCSB_KEYS)]);
}

/** Parse properties text plus overrides in one call (used by tests and k6 scripts). */
export function workloadFromText(text: string, origin: string, overrides: readonly string[] = []): WorkloadProperties {
  const raw = parsePropertiesText(text, origin);
  for (const o of overrides) applyOverride(raw, o);
  return resolveProperties(raw);
}
