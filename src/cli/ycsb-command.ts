import { buildResult, withVerdict } from '../results/build.ts';
import type { LostWrites, Result } from '../results/schema.ts';
import { lostWritesNote } from '../results/lost-writes-note.ts';
import { checkAcknowledgedWrites } from '../runner/lost-writes.ts';
import { checkOutPath, writeResult } from '../results/write.ts';
import { exportMeasurements } from '../report/ycsb-export.ts';
import { checkHdrLogPath, writeHdrLogs } from '../report/hdr-logs.ts';
import { runLoadPhase, runTransactionPhase } from '../runner/phases.ts';
import type { ProcessPool } from '../runner/process-pool.ts';
import { MissingDataError } from '../stores/store.ts';
import { loadCommandFor } from '../results/verdict.ts';
import { checkDbProperty } from '../workload/properties.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { Random } from '../workload/random.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { failedWritesOf, LoadWrites, loadFailure, refuseLoadOverExistingRecords } from './load-guard.ts';
import { faultPolicyOf, withWorkloadBudget, type OnError } from '../runner/fault-policy.ts';
import { interrupts } from '../runner/interrupts.ts';
import { invalidRunError } from '../results/run-stopped.ts';
import type { LiveMetrics } from '../metrics/live-metrics.ts';
import { closeQuietly, describeStore, openStore, requestOf } from '../session/store-session.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { openPool, processesFor } from '../session/worker-pool.ts';

export interface YcsbCommandOptions {
  phase: 'load' | 'run';
  store: string;
  url?: string;
  /** Store settings from the config file: applied before `overrides`, which win. */
  storeSettings?: readonly string[];
  workloadFiles: string[];
  overrides: string[];
  threads?: number;
  target?: number;
  /** Worker processes the threadcount workers are spread over (`--processes`: a number, or auto). */
  processes?: ProcessesSetting;
  out?: string;
  /** Drop and re-create the table before loading. */
  fresh?: boolean;
  /** Print status lines on stderr. */
  status: boolean;
  /** Print YCSB text on stdout. */
  print: boolean;
  /** `--on-error`: go on counting failures (default), or stop at the first. */
  onError?: OnError;
  /** Live metrics to feed (`--metrics-port`). */
  metrics?: LiveMetrics;
}

/** `-p` overrides implied by the convenience flags, applied after the user's own. */
export function flagOverrides(options: { threads?: number; target?: number }): string[] {
  const extra: string[] = [];
  if (options.threads !== undefined) extra.push(`threadcount=${options.threads}`);
  if (options.target !== undefined) extra.push(`target=${options.target}`);
  return extra;
}

export function loadWorkloadFor(options: YcsbCommandOptions): LoadedWorkload {
  if (options.workloadFiles.length === 0 && options.overrides.length === 0) {
    throw new UsageError('no workload given: use -P <file> (e.g. -P workloada) and/or -p key=value');
  }
  const workload = loadWorkload(options.workloadFiles, [
    ...(options.storeSettings ?? []),
    ...options.overrides,
    ...flagOverrides(options),
  ]);
  const p = workload.properties;
  if (options.phase === 'run' && p.operationcount === 0 && p.maxexecutiontime === 0) {
    throw new UsageError('the run phase needs operationcount > 0 or maxexecutiontime > 0');
  }
  if (options.phase === 'load' && p.insertcount === 0) {
    throw new UsageError('nothing to load: recordcount (or insertcount) is 0');
  }
  return workload;
}

/**
 * `docbench load` / `docbench run`: one YCSB phase against one store. Interrupted (SIGINT,
 * SIGTERM), the phase stops, and its partial result is printed and written all the same.
 */
export function runYcsbPhase(options: YcsbCommandOptions): Promise<Result> {
  return interrupts.holding(() => ycsbPhase(options));
}

async function ycsbPhase(options: YcsbCommandOptions): Promise<Result> {
  checkOutPath(options.out);
  // maxerrorrate is the run's, not the workload's: taken out before the workload is read.
  const { policy: given, rest } = faultPolicyOf(options.overrides, options.onError);
  const workload = loadWorkloadFor({ ...options, overrides: rest });
  const p = workload.properties;
  const faults = withWorkloadBudget(given, p);
  checkDbProperty(p, options.store);
  checkOutPath(p.exportfile, 'exportfile');
  if (p['hdrhistogram.fileoutput']) checkHdrLogPath(p['hdrhistogram.output.path']);
  // No URL: docbench's local server (or the in-process BasicDB) shares this machine's cores.
  const processes = processesFor(options.processes, p, options.url === undefined ? [options.store] : []);
  const metricsLabels = { store: options.store, workload: workload.name, phase: options.phase };
  const open = await openStore(options.store, options.url, requestOf(p));
  let pool: ProcessPool | undefined;
  try {
    const core = new CoreWorkload(p, new Random(p.seed));
    const schema = { table: core.table, fieldNames: core.fieldNames };
    if (options.phase === 'load') {
      if (options.fresh) await open.store.drop(schema);
      await open.store.prepare(schema);
      if (!options.fresh) await refuseLoadOverExistingRecords(open.store, options.store, core, p);
    } else {
      // A run over a table that is not there would measure nothing but misses.
      await open.store.checkTable(schema).catch((error: unknown) => {
        const given = workload.files.length > 0 ? options.workloadFiles.join(' -P ') : workload.name;
        throw error instanceof MissingDataError
          ? error.withFix(`load it first: ${loadCommandFor(options.store, open.local, given, p)}`)
          : error;
      });
    }
    pool = await openPool(open, options.store, p, processes.processes);
    // In one process the load's store is wrapped to count failed writes; worker processes report theirs in the status counts.
    const writes = new LoadWrites(open.store);
    const phaseStore = options.phase === 'load' && !pool ? writes.store : open.store;
    const label = `[${options.store} ${workload.name} ${options.phase}]`;
    const observer = options.metrics?.start(metricsLabels);
    const phaseOptions = {
      store: phaseStore,
      workload: core,
      properties: p,
      status: options.status,
      label,
      faults,
      processesReason: processes.reason,
      ...(pool ? { pool } : {}),
      ...(observer ? { observer } : {}),
    };
    const outcome =
      options.phase === 'load' ? await runLoadPhase(phaseOptions) : await runTransactionPhase(phaseOptions);
    const failure =
      options.phase === 'load'
        ? loadFailure(outcome, pool ? failedWritesOf(outcome, p.batchsize) : writes, options.store)
        : null;
    // The failover check reads back before the stats, with the store as the run left it.
    if (outcome.acknowledgedWrites && options.status)
      process.stderr.write(`${label} failover check: reading back every key with an acknowledged write\n`);
    const lostWrites = outcome.acknowledgedWrites
      ? await checkAcknowledgedWrites(open.store, core, outcome.acknowledgedWrites, p.fieldlength)
      : undefined;
    const storeInfo = await describeStore(open);
    const result = withVerdictMetric(
      options.metrics,
      metricsLabels,
      buildResult(outcome, {
        kind: 'ycsb',
        mode: 'direct',
        workloadName: workload.name,
        ...(workload.files.length > 0 ? { workloadFile: options.workloadFiles.join(' ') } : {}),
        properties: p,
        overrides: [...options.overrides, ...flagOverrides(options)],
        store: storeInfo,
      }),
      lostWrites,
    );
    // YCSB's exporter and exportfile decide where the measurements go; the JSON result is --out.
    if (options.print || p.exportfile !== undefined) exportMeasurements(result, p);
    if (options.out) writeResult(options.out, result);
    if (p['hdrhistogram.fileoutput']) {
      const logs = writeHdrLogs(result, p['hdrhistogram.output.path']);
      if (logs.length > 0) process.stderr.write(`HdrHistogram interval logs: ${logs.join(', ')}\n`);
    }
    if (failure) throw failure;
    const invalid = invalidRunError(result, `${options.store} ${workload.name} ${options.phase}`);
    if (invalid) throw invalid;
    return result;
  } finally {
    await pool?.close();
    await closeQuietly(open.store);
  }
}

/** The result with the failover check's finding, its verdict told to the live metrics first (when they are served). */
function withVerdictMetric(
  metrics: LiveMetrics | undefined,
  labels: Parameters<LiveMetrics['finish']>[0],
  built: Result,
  lostWrites?: LostWrites,
): Result {
  // The check's finding is part of what the verdict reads (why reads found no record).
  const result = lostWrites
    ? withVerdict({ ...built, lostWrites, notes: [...built.notes, lostWritesNote(lostWrites)] })
    : built;
  metrics?.finish(labels, result.verdict?.status ?? 'valid');
  return result;
}
