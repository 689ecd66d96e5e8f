/**
 * The YCSB client: one store opened for YCSB phases, and one method per phase that turns a
 * workload into a result with its verdict. Every entry point that runs YCSB (`docbench load` and
 * `run`, `compare`, `capacity`, sweeps and the studies that run them, `k6 --direct`) calls it, so
 * what a phase does is decided here once: the table is prepared or checked, a load is guarded
 * against records already there and counts its failed writes, the workers run on this event loop
 * or in worker processes, the failover check reads back every acknowledged write, the local
 * server's own cost is measured, live metrics are fed, HdrHistogram logs are written, and the
 * result names the store as the server describes itself.
 *
 * Entry points keep what is theirs: parsing arguments, the order of phases and stores, where
 * results are written and what is printed.
 */
import type { FaultPolicy } from '../common/fault-policy.ts';
import { startServerCostMeter } from '../local/server-cost.ts';
import type { LiveMetrics, RunLabels } from '../metrics/live-metrics.ts';
import { writeHdrLogs } from '../report/hdr-logs.ts';
import { buildResult, withVerdict } from '../results/build.ts';
import { lostWritesNote } from '../results/lost-writes-note.ts';
import type { Result } from '../results/schema.ts';
import { loadCommandFor } from '../results/verdict.ts';
import { checkAcknowledgedWrites } from '../runner/lost-writes.ts';
import { runLoadPhase, runTransactionPhase, type PhaseOptions } from '../runner/phases.ts';
import type { ProcessPool } from '../runner/process-pool.ts';
import type { RunObserver } from '../runner/schedule.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { closeQuietly, describeStore, openStore, requestOf, type OpenStore } from '../session/store-session.ts';
import { MissingDataError } from '../stores/store.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { Random } from '../workload/random.ts';
import type { LoadedWorkload } from '../workload/workload-file.ts';
import {
  failedWritesOf,
  LoadWrites,
  loadFailure,
  refuseLoadOverExistingRecords,
  type LoadFailedError,
} from './load-guard.ts';
import { openPool, processesFor } from './worker-pool.ts';

/** What watches a phase second by second (live metrics, a capacity step's early stop). */
export type { RunObserver };

export interface ClientOptions {
  /** The store's name (a STORES row). */
  store: string;
  /** Its URL; undefined for docbench's local server, started on demand. */
  url: string | undefined;
  /** The first workload the client will run: its store settings and threadcount size the connections and processes. */
  properties: WorkloadProperties;
  /** `--processes`: a number, or auto (undefined: the `processes` property, else auto). */
  processes?: ProcessesSetting;
  /** The command's stores that run on this machine: auto keeps one client process when any does. */
  localStores: readonly string[];
  /** False: every phase runs on this event loop whatever the setting (a sweep's cells, an end-to-end search). */
  workerProcesses?: boolean;
}

/** What one phase runs, and how its result is labelled. */
export interface PhaseRequest {
  workload: LoadedWorkload;
  /** The status lines' label, e.g. `[redis workloada run]`. */
  label: string;
  /** Print status lines on stderr. */
  status: boolean;
  /** The `-p` assignments as the user gave them (the result records them). */
  overrides: readonly string[];
  /** The workload files as given (the result records them; default: the files the workload was read from). */
  workloadFile?: string;
  /** The result's workload name (default: the workload's). */
  name?: string;
  /** What failed operations do to the phase (default: counted, the phase goes on). */
  faults?: FaultPolicy;
  /** Watches the phase second by second (the capacity search's early stop). */
  observer?: RunObserver;
  /** Live metrics to feed (`--metrics-port`), under these labels. */
  metrics?: { live: LiveMetrics; labels: RunLabels };
  /** Added to the workload's seed: a repetition or a capacity step draws other keys than the first. */
  seedOffset?: number;
  /** Awaited once the workers are ready, just before the phase's clock starts (a sharded run's start barrier). */
  beforeStart?: () => Promise<void>;
}

export interface LoadRequest extends PhaseRequest {
  /**
   * `fresh`: drop and re-create the table first. `guarded`: create it if missing, and refuse to
   * load over records already there (a second load, as a new user does).
   */
  table: 'fresh' | 'guarded';
}

export interface RunRequest extends PhaseRequest {
  /** Measure the local server's CPU and peak memory while the run runs (nothing for a remote store). */
  serverCost?: boolean;
  /** Check the table exists first, with this workload named in the fix (`-P …`); undefined: no check. */
  checkTableFor?: string;
  /** What stopped the run when its observer did (a capacity step's blown budget), read as it ends. */
  stopDetail?: () => string | undefined;
}

/** A phase's result; for a load, also the error to end with when some records were not written. */
export interface PhaseRun {
  result: Result;
  failure?: LoadFailedError;
}

export class YcsbClient {
  private constructor(
    readonly opened: OpenStore,
    private readonly pool: ProcessPool | undefined,
    /** Why the phases run in as many processes as they do, for the result. */
    private readonly processesReason: string | undefined,
  ) {}

  /** Open the store (its local server started on demand) and, when the run uses several, the worker processes. */
  static async open(options: ClientOptions): Promise<YcsbClient> {
    const p = options.properties;
    const opened = await openStore(options.store, options.url, requestOf(p));
    // On one event loop by the caller's choice, the setting does not apply, and the result names no reason.
    if (options.workerProcesses === false) return new YcsbClient(opened, undefined, undefined);
    try {
      const processes = processesFor(options.processes, p, options.localStores);
      return new YcsbClient(opened, await openPool(opened, options.store, p, processes.processes), processes.reason);
    } catch (error) {
      await closeQuietly(opened.store);
      throw error;
    }
  }

  get store(): string {
    return this.opened.store.name;
  }

  /** The load phase: the table made ready as asked, then `recordcount` records inserted. */
  async load(request: LoadRequest): Promise<PhaseRun> {
    const p = request.workload.properties;
    const core = this.workloadOf(request);
    const schema = { table: core.table, fieldNames: core.fieldNames };
    const store = this.opened.store;
    if (request.table === 'fresh') await store.drop(schema);
    await store.prepare(schema);
    if (request.table === 'guarded') await refuseLoadOverExistingRecords(store, this.store, core, p);
    // In one process the store is wrapped to count failed writes; worker processes report theirs in the status counts.
    const writes = this.pool ? undefined : new LoadWrites(store);
    const outcome = await runLoadPhase(this.phaseOptions(request, core, writes?.store ?? store));
    const failure = loadFailure(outcome, writes ?? failedWritesOf(outcome, p.batchsize), this.store) ?? undefined;
    const result = await this.finish(request, buildResult(outcome, await this.context(request)));
    return failure ? { result, failure } : { result };
  }

  /** The run phase: YCSB's transactions, then the failover check's read-back when it is on. */
  async run(request: RunRequest): Promise<PhaseRun> {
    const p = request.workload.properties;
    const core = this.workloadOf(request);
    const store = this.opened.store;
    const checkFor = request.checkTableFor;
    if (checkFor !== undefined) {
      // A run over a table that is not there would measure nothing but misses.
      await store.checkTable({ table: core.table, fieldNames: core.fieldNames }).catch((error: unknown) => {
        throw error instanceof MissingDataError
          ? error.withFix(`load it first: ${loadCommandFor(this.store, this.opened.local, checkFor, p)}`)
          : error;
      });
    }
    const meter = request.serverCost ? await startServerCostMeter(this.store, this.opened.local) : undefined;
    const outcome = await runTransactionPhase(this.phaseOptions(request, core, store));
    const serverCost = meter?.stop();
    const detail = request.stopDetail?.();
    if (detail !== undefined) outcome.stopDetail = detail;
    // The failover check reads back before the stats, with the store as the run left it.
    const tracked = outcome.acknowledgedWrites;
    if (tracked && request.status)
      process.stderr.write(`${request.label} failover check: reading back every key with an acknowledged write\n`);
    const lostWrites = tracked ? await checkAcknowledgedWrites(store, core, tracked, p.fieldlength) : undefined;
    const built = buildResult(outcome, await this.context(request));
    // The check's finding is part of what the verdict reads (why reads found no record).
    const checked = lostWrites
      ? withVerdict({ ...built, lostWrites, notes: [...built.notes, lostWritesNote(lostWrites)] })
      : built;
    return { result: await this.finish(request, serverCost ? { ...checked, serverCost } : checked) };
  }

  async close(): Promise<void> {
    await this.pool?.close();
    await closeQuietly(this.opened.store);
  }

  private workloadOf(request: PhaseRequest): CoreWorkload {
    const p = request.workload.properties;
    return new CoreWorkload(p, new Random(p.seed + (request.seedOffset ?? 0)));
  }

  private phaseOptions(request: PhaseRequest, core: CoreWorkload, store: OpenStore['store']): PhaseOptions {
    const started = request.metrics?.live.start(request.metrics.labels);
    const given = request.observer;
    const observer: RunObserver | undefined =
      started && given
        ? {
            second: (rows, recording, control) => {
              started.second(rows, recording, control);
              given.second(rows, recording, control);
            },
          }
        : (started ?? given);
    return {
      store,
      workload: core,
      properties: request.workload.properties,
      status: request.status,
      label: request.label,
      ...(this.processesReason !== undefined ? { processesReason: this.processesReason } : {}),
      ...(this.pool ? { pool: this.pool } : {}),
      ...(request.faults ? { faults: request.faults } : {}),
      ...(observer ? { observer } : {}),
      ...(request.beforeStart ? { beforeStart: request.beforeStart } : {}),
    };
  }

  private async context(request: PhaseRequest) {
    const loaded = request.workload;
    const file = request.workloadFile ?? loaded.files.join(' ');
    return {
      kind: 'ycsb',
      mode: 'direct' as const,
      workloadName: request.name ?? loaded.name,
      ...(file !== '' ? { workloadFile: file } : {}),
      properties: loaded.properties,
      overrides: [...request.overrides],
      store: await describeStore(this.opened),
    };
  }

  /** Tell the live metrics the verdict, and write the HdrHistogram logs the workload asks for. */
  private async finish(request: PhaseRequest, result: Result): Promise<Result> {
    request.metrics?.live.finish(request.metrics.labels, result.verdict?.status ?? 'valid');
    const p = request.workload.properties;
    if (p['hdrhistogram.fileoutput']) {
      const logs = writeHdrLogs(result, p['hdrhistogram.output.path']);
      if (logs.length > 0) process.stderr.write(`HdrHistogram interval logs: ${logs.join(', ')}\n`);
    }
    return result;
  }
}
