import { z } from 'zod';
import { STATUSES } from '../measure/status.ts';

/**
 * The one result schema. Every output format (YCSB text, comparison tables, JSON files) is
 * rendered from a value of this shape, and a result file holds everything needed to reproduce
 * and compare the run: every property, the store and its version, the machine, the times.
 */
export const RESULT_SCHEMA_VERSION = 1;

const count = z.number().int().nonnegative();
const returnsSchema = z.partialRecord(z.enum(STATUSES), count);

export const latencySchema = z.object({
  /** Calls recorded in this row's histogram. */
  operations: count,
  averageUs: z.number().nonnegative(),
  minUs: count,
  maxUs: count,
  /** Percentile ("50", "99.9") -> latency in µs, as listed in `hdrhistogram.percentiles`. */
  percentilesUs: z.record(z.string(), count),
});

export const operationSchema = z.object({
  /** YCSB's row name: `READ`, `READ-FAILED`, `Intended-READ`, `VERIFY`, `INSERT-BATCH`, … */
  name: z.string(),
  latency: latencySchema,
  /** Outcome counts of this operation (only on rows that count outcomes: not -FAILED or Intended-). */
  returns: returnsSchema.optional(),
  /** The first few distinct error messages, so a failed run explains itself. */
  errorSamples: z.array(z.string()).optional(),
  /**
   * The row's whole HDR histogram (µs) in HdrHistogram's standard compressed base64 encoding, as
   * HdrHistogram's own tools read it: results of several processes or machines merge exactly
   * from it (`results/merge.ts`). Absent on rows without latencies and in files written before it.
   */
  histogram: z.string().optional(),
});

export const storeInfoSchema = z.object({
  /** docbench's store name (`redis`, `mongodb`, …). */
  name: z.string(),
  /** Connection URL with any password removed. */
  url: z.string(),
  server: z.string(),
  serverVersion: z.string(),
  driver: z.string(),
  /** Present when the figures come from a local stand-in, not the real product. */
  standIn: z.object({ name: z.string(), version: z.string(), note: z.string() }).optional(),
  /**
   * Present when the server is another product speaking this store's protocol (FerretDB, Amazon
   * DocumentDB, Azure Cosmos DB, IBM Cloudant, …), named from its own answers: its figures are
   * that product's, and reports name it in every label, so its cells never merge with the store's.
   */
  compatible: z.object({ product: z.string(), version: z.string(), note: z.string() }).optional(),
  /** True when docbench's own local server was used. */
  localTarget: z.boolean(),
  targetProduct: z.string().optional(),
  diskBytes: z.number().nonnegative().optional(),
  memoryBytes: z.number().nonnegative().optional(),
  recordCount: z.number().nonnegative().optional(),
  extra: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** What docbench asked the store after the run and could not read (the store was down): `what: why`. */
  unread: z.array(z.string()).optional(),
  /** The deployment the run talked to, as the server describes it (see StoreTopology in stores/store.ts). */
  topology: z
    .object({
      kind: z.string(),
      nodes: count,
      masters: count.optional(),
      replicas: count.optional(),
      slotsPerMaster: z.array(count).optional(),
      replicationFactor: count.optional(),
      down: count.optional(),
    })
    .optional(),
  /** The consistency the run's reads and writes asked for: levels, write concern, read preference, WAIT. */
  consistency: z.object({ reads: z.string(), writes: z.string() }).optional(),
  /** Whether the connections were encrypted (TLS). */
  encrypted: z.boolean().optional(),
  /** How the store ran the work where a reader must know it (e.g. a cluster's non-atomic insert). */
  notes: z.array(z.string()).optional(),
});

/**
 * A stretch of the run during which the store could not serve: calls failed as
 * SERVICE_UNAVAILABLE or TIMEOUT (with the seconds around them in which nothing succeeded), or no
 * operation finished at all for far longer than the run's pace allows (a stall), from
 * `fromSecond` to `toSecond` of the time series (results/faults.ts). `recovered` says whether
 * operations succeeded again before the run ended.
 */
export const outageSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  fromSecond: z.number().nonnegative(),
  toSecond: z.number().nonnegative(),
  /** Operations that failed in the window. */
  failedOperations: count,
  /** Store calls that failed as out of reach in the window. */
  outageCalls: count,
  recovered: z.boolean(),
});

/**
 * The failover check (`failovercheck=true`): every key whose write was acknowledged, read back
 * after the run (runner/lost-writes.ts). A lost field held an older write than the last one
 * acknowledged (or was gone).
 */
export const lostWritesSchema = z.object({
  checkedRecords: count,
  /** Fields with an acknowledged write, read back. */
  checkedFields: count,
  /** Acknowledged writes lost: fields holding an older write than the last acknowledged one, or gone. */
  lostFields: count,
  lostRecords: count,
  /** Records gone whole (each of their acknowledged fields counted lost). */
  missingRecords: count,
  unrecognisedFields: count,
  /** Records that could not be read back (the store still away): neither lost nor kept. */
  unreadableRecords: count,
  untrackedWrites: count,
  droppedFields: count,
  /** How the records were read back, e.g. "consistency ALL". */
  readWith: z.string(),
  seconds: z.number().nonnegative(),
  /** A few of the lost fields, in words. */
  samples: z.array(z.string()),
});

/**
 * How one operation kind saw an outage: from the start of the first second in which its calls
 * failed as out of reach (SERVICE_UNAVAILABLE, TIMEOUT) to the end of the last, at a second's
 * resolution (`operationSeries.seconds`). Errors the store answered (conflicts) are never one.
 */
export const operationOutageSchema = z.object({
  operation: z.string(),
  fromSecond: z.number().nonnegative(),
  toSecond: z.number().nonnegative(),
  /** toSecond - fromSecond: how long the operation kind failed. */
  seconds: z.number().nonnegative(),
  /** Its calls that failed as out of reach in the window. */
  failed: count,
  /** Whether the store answered it again after the window. */
  recovered: z.boolean(),
  /** Those calls by kind (SERVICE_UNAVAILABLE, TIMEOUT). */
  failures: z.record(z.string(), count),
});

/** How failures went in a run, and the policy it ran under (`--on-error`, `maxerrorrate`). */
export const faultsSchema = z.object({
  onError: z.enum(['continue', 'abort']),
  maxErrorRate: z.number().min(0).max(1).optional(),
  /** Operations (after warm-up) that failed: not in `overall.operations` nor in the throughput. */
  failedOperations: count,
  /** failedOperations over every operation issued (failed + done). */
  errorRate: z.number().min(0).max(1),
  outages: z.array(outageSchema),
  /** Each operation kind's own outage windows (from its outcomes second by second), in order. */
  byOperation: z.array(operationOutageSchema).optional(),
});

export const machineSchema = z.object({
  cpus: z.number().int().positive(),
  cpuModel: z.string(),
  memoryBytes: z.number().positive(),
  platform: z.string(),
  release: z.string(),
  arch: z.string(),
  node: z.string(),
  docbench: z.string(),
});

/**
 * How the store ran one scenario query (once per query and variant, taken outside the timed
 * window): store-neutral figures from the store's own evidence (src/stores/query-plan.ts), and a
 * flag when an index was meant to serve the query and the store read everything instead.
 */
export const planSchema = z.object({
  /** The query: `Q1` … `Q5`, `pagination`, `join`. */
  query: z.string(),
  variant: z.string(),
  /** The parameters the plan was taken with, as JSON, where the query has some. */
  parameters: z.string().optional(),
  access: z.enum(['index', 'key', 'scan', 'unknown']),
  /** Indexes, views, query tables or key structures read; empty when none. */
  used: z.array(z.string()),
  keysExamined: count.optional(),
  documentsExamined: count.optional(),
  returned: count.optional(),
  warnings: z.array(z.string()),
  /** An index was built to serve this query. */
  indexExpected: z.boolean(),
  /** indexExpected, and yet the store read every document. */
  flagged: z.boolean(),
  /** Where the evidence comes from, e.g. `explain("executionStats")`. */
  source: z.string(),
  /** The store's own plan text, shortened. */
  raw: z.string(),
});

/** One reason a result is not a measurement of the store (results/verdict.ts). */
export const verdictReasonSchema = z.object({
  /** `unsupported`, `unreachable`, `no-success`, `not-loaded`, `wrong-answers`, `error-budget`, `aborted`. */
  code: z.string(),
  /** What went wrong, with the counts. */
  detail: z.string(),
  /** What to do about it. */
  fix: z.string(),
});

/** An operation left out of a result's figures, and why (a scenario query the store refuses). */
export const excludedOperationSchema = z.object({
  operation: z.string(),
  /** Why, in the store's words: `UNSUPPORTED: …`. */
  detail: z.string(),
});

/** `valid`, or `invalid` with every reason: computed once, from the counts, and shown by every output. */
export const verdictSchema = z.object({
  status: z.enum(['valid', 'invalid']),
  reasons: z.array(verdictReasonSchema),
  /**
   * Scenario results: the queries the store refused, left out of its figures (absent when none).
   * The rest stay valid and compare query by query; the mix-level figures (overall ops/s) are of
   * a mix without these, and compare only with results that left out the same.
   */
  excluded: z.array(excludedOperationSchema).optional(),
});

/**
 * How a study preset's run differs from the paper it reproduces (`docbench study`): each
 * difference with the paper's own words and where they stand, and what docbench did instead.
 */
export const deviationSchema = z.object({
  /** What differs: `cluster`, `records`, `threads`, `store`, … */
  item: z.string(),
  /** The paper's words, with their location (table, figure, section, page). */
  paper: z.string(),
  /** What this run did instead, and why. */
  docbench: z.string(),
});

export const studySchema = z.object({
  /** The preset (`carvalho2023`, …) and the paper it reproduces. */
  name: z.string(),
  title: z.string(),
  scale: z.string(),
  /** A named variant of the preset, when one was asked for. */
  variant: z.string().optional(),
  /** The preset's step this result came from (a paper's experiments may share a setting). */
  step: z.string().optional(),
  deviations: z.array(deviationSchema),
});

/**
 * Where a run sat in an interleaved design: every round runs each cell once, in a fresh random
 * order drawn from `seed`, so drift over time (a neighbour, a compaction, the hypervisor's steal)
 * spreads over every store instead of landing on whichever ran at the time (docs/statistics.md).
 */
export const repetitionSchema = z.object({
  /** The round, 1-based. */
  round: z.number().int().positive(),
  /** Rounds in the design. */
  rounds: z.number().int().positive(),
  /** This run's place in its round's order, 1-based. */
  position: z.number().int().positive(),
  /** The round's order of stores (or configurations), as drawn. */
  order: z.array(z.string()),
  /** The seed the round's order was drawn from. */
  seed: z.number(),
});

/** The whole run's settings that the parts of a sharded run share out (src/shard/shard-spec.ts). */
const wholeSettingsSchema = z.object({
  threadcount: z.number().int().positive(),
  target: z.number().nonnegative(),
  operationcount: z.number().int().nonnegative(),
  insertstart: z.number().int().nonnegative(),
  insertcount: z.number().int().nonnegative(),
  seed: z.number().int().nonnegative(),
});

const keyRangeSchema = z.object({ first: z.number().int().nonnegative(), count: z.number().int().nonnegative() });

/** One part of a sharded run (`--shard i/N`, `--shards N`): docs/distributed.md. */
export const shardSchema = z.object({
  /** This part, from 0, of `count`. */
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** `--run-id`, when given: tells two runs of the same settings apart. */
  runId: z.string().optional(),
  /** A hash of every setting the parts must share (workload, properties, store, phase, N). */
  settings: z.string(),
  whole: wholeSettingsSchema,
  /** Load: the key numbers this part wrote. */
  keys: keyRangeSchema.optional(),
  /** Run: this part's inserts went to key numbers recordcount + k·stride + offset. */
  inserts: z.object({ stride: z.number().int().positive(), offset: z.number().int().nonnegative() }).optional(),
  /** How the part started: at the barrier's agreed instant (absent: it started when it started, without --barrier). */
  start: z
    .object({
      barrier: z.string(),
      /** The agreed instant, on the coordinator's clock. */
      startAt: z.iso.datetime(),
      /** Coordinator clock minus this part's clock, from the best of a few probes (ms). */
      offsetMs: z.number(),
      /** That probe's round trip: the offset is good to about half of it (ms). */
      roundTripMs: z.number().nonnegative(),
      /** When the measurement actually started, on the coordinator's clock, relative to the agreed instant (ms). */
      lateMs: z.number(),
    })
    .optional(),
  /** Why this part could not keep its share (its target rate, or its CPU): absent when it kept it. */
  saturated: z.string().optional(),
});

/** A result merged from every part of one sharded run (`report --merge`). */
export const mergedShardsSchema = z.object({
  count: z.number().int().positive(),
  runId: z.string().optional(),
  settings: z.string(),
  /** Whether every part started at the barrier's instant (else each started when it started). */
  synchronised: z.boolean(),
  /** The latest part's actual start minus the earliest's (ms); on one clock when synchronised, else on each part's own. */
  startSpreadMs: z.number().nonnegative(),
  /** Load: the key range the parts wrote, each key by exactly one part. */
  keys: keyRangeSchema.optional(),
  /** The parts that could not keep their share, with why. */
  saturated: z.array(z.object({ index: z.number().int().nonnegative(), detail: z.string() })),
});

const propertyValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.number())]);

export const resultSchema = z.object({
  schemaVersion: z.literal(RESULT_SCHEMA_VERSION),
  /** What ran: `ycsb`, or a scenario's name. */
  kind: z.string(),
  /** `direct`: in-process through the driver; `http`: end to end through the service. */
  mode: z.enum(['direct', 'http']),
  phase: z.enum(['load', 'run']),
  workload: z.object({
    name: z.string(),
    /** The workload file(s) as given. */
    file: z.string().optional(),
    /** Every property as resolved (defaults included), store settings among them. */
    properties: z.record(z.string(), propertyValue),
    /** The `-p` overrides as given, in order. */
    overrides: z.array(z.string()),
  }),
  store: storeInfoSchema,
  machine: machineSchema,
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime(),
  overall: z.object({
    /** Measured window in ms (warm-up excluded). */
    runtimeMs: z.number().nonnegative(),
    throughputOpsPerSec: z.number().nonnegative(),
    /** Client-level operations measured that did their work (records, in a load phase); failed ones are in `faults`. */
    operations: count,
  }),
  /**
   * Present when the run stopped before its end: interrupted (SIGINT, SIGTERM), aborted at the
   * first failure (`--on-error abort`), past its error budget (`maxerrorrate`), or a capacity step
   * stopped once it was certain to miss its budget (`latency-budget`). The figures cover what was
   * done until then.
   */
  partial: z.object({ reason: z.enum(['on-error', 'error-budget', 'SIGINT', 'SIGTERM', 'latency-budget']), detail: z.string() }).optional(),
  faults: faultsSchema.optional(),
  /** The failover check's finding (`failovercheck=true`). */
  lostWrites: lostWritesSchema.optional(),
  warmup: z.object({ seconds: z.number().nonnegative(), operations: count }),
  /** The client's own CPU while measuring, so a reader can tell when the harness was the limit. */
  clientCpu: z.object({
    userMs: z.number().nonnegative(),
    systemMs: z.number().nonnegative(),
    usPerOp: z.number().nonnegative(),
    /** Client processes (or worker threads) the workers ran in; absent in files written before it (1). */
    processes: z.number().int().positive().optional(),
    /** Why that many: `--processes`, the property, or auto and what it saw (every store remote, or a local one). */
    processesReason: z.string().optional(),
    /**
     * How busy each event loop that ran workers was (its thread's CPU over the measured window,
     * Linux): a loop near 100% was the limit, not the store.
     */
    eventLoopBusyPercent: z.array(z.number().nonnegative()).optional(),
  }),
  /**
   * The whole machine's CPU while measuring (Linux): how busy all cores were, and the share a
   * hypervisor gave to other guests (steal), which depresses every figure of the run.
   */
  machineCpu: z.object({ busyPercent: z.number().min(0).max(100), stealPercent: z.number().min(0).max(100) }).optional(),
  /**
   * The store server's own cost while measuring, beside the client's: for a local server docbench
   * started, its process's CPU time and peak resident memory from /proc; absent where not measured.
   */
  serverCost: z
    .object({
      cpuMs: z.number().nonnegative().optional(),
      /** Peak resident set of the server process over its life so far (VmHWM). */
      peakRssBytes: z.number().nonnegative().optional(),
      /** Where the figures come from, e.g. `/proc/<pid> of redis-server`. */
      source: z.string(),
    })
    .optional(),
  /** Outcome counts over all operations. */
  returns: returnsSchema,
  operations: z.array(operationSchema),
  /** One point a second: operations, ops/s and p99 of that second. */
  timeSeries: z.array(
    z.object({
      t: z.number(),
      operations: count,
      opsPerSec: z.number().nonnegative(),
      p99Us: count,
      warmup: z.boolean(),
      /** Of `operations`, those that failed (absent when none). */
      failed: count.optional(),
      /** Store calls that failed as out of reach (SERVICE_UNAVAILABLE, TIMEOUT) in this second (absent when none). */
      outageCalls: count.optional(),
    }),
  ),
  /**
   * Every latency row every `status.interval` seconds (measure/operation-series.ts): calls, p50,
   * p99 and max of each interval, failed calls per operation, and each interval's HDR histogram,
   * from which the series of several processes or machines merge exactly. Column by column:
   * entry i of every array is interval i, which ended `t[i]` seconds after the start.
   */
  operationSeries: z
    .object({
      intervalSeconds: z.number().positive(),
      t: z.array(z.number().nonnegative()),
      warmup: z.array(z.boolean()),
      rows: z.array(
        z.object({
          name: z.string(),
          count: z.array(count),
          failed: z.array(count).optional(),
          p50Us: z.array(count),
          p99Us: z.array(count),
          maxUs: z.array(count),
          histograms: z.array(z.string()),
        }),
      ),
      /**
       * Each operation's calls second by second, by outcome (the time series' points; warm-up
       * seconds hold zeros): `ok` (OK, NOT_FOUND), `error` (ERROR), `unavailable`
       * (SERVICE_UNAVAILABLE), `timeout` (TIMEOUT), each column absent when all zero but `ok`.
       * Outage windows are read from it at a second's resolution (results/faults.ts).
       */
      seconds: z
        .object({
          t: z.array(z.number().nonnegative()),
          rows: z.array(
            z.object({
              operation: z.string(),
              ok: z.array(count),
              error: z.array(count).optional(),
              unavailable: z.array(count).optional(),
              timeout: z.array(count).optional(),
            }),
          ),
        })
        .optional(),
    })
    .optional(),
  notes: z.array(z.string()),
  /** Whether the figures measure the store (absent in files written before verdicts: computed when read). */
  verdict: verdictSchema.optional(),
  /** Scenario runs: how the store ran each query (see planSchema). */
  plans: z.array(planSchema).optional(),
  /** Runs made by a study preset: which paper, and every way the run differs from it. */
  study: studySchema.optional(),
  /** A run of an interleaved design (`--repetitions N`): which round it was and where it ran in that round. */
  repetition: repetitionSchema.optional(),
  /** A part of a sharded run. */
  shard: shardSchema.optional(),
  /** A result merged from the parts of a sharded run. */
  shards: mergedShardsSchema.optional(),
});

export type Result = z.infer<typeof resultSchema>;
export type StoreInfo = z.infer<typeof storeInfoSchema>;
export type OperationResult = z.infer<typeof operationSchema>;
export type Machine = z.infer<typeof machineSchema>;
export type QueryPlan = z.infer<typeof planSchema>;
export type Outage = z.infer<typeof outageSchema>;
export type Deviation = z.infer<typeof deviationSchema>;
export type StudyInfo = z.infer<typeof studySchema>;
export type Faults = z.infer<typeof faultsSchema>;
export type LostWrites = z.infer<typeof lostWritesSchema>;
export type OperationOutage = z.infer<typeof operationOutageSchema>;
export type Verdict = z.infer<typeof verdictSchema>;
export type OperationSeriesResult = NonNullable<Result['operationSeries']>;
export type VerdictReason = z.infer<typeof verdictReasonSchema>;
export type Repetition = z.infer<typeof repetitionSchema>;
export type ShardInfo = z.infer<typeof shardSchema>;
export type MergedShards = z.infer<typeof mergedShardsSchema>;
export type ExcludedOperation = z.infer<typeof excludedOperationSchema>;
