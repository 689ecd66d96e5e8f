import type { Result } from '../results/schema.ts';
import { checkOutPath, writeResult } from '../results/write.ts';
import { exportMeasurements } from '../report/ycsb-export.ts';
import { checkHdrLogPath } from '../report/hdr-logs.ts';
import { checkDbProperty } from '../workload/properties.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { YcsbClient } from '../client/ycsb-client.ts';
import { faultPolicyOf, withWorkloadBudget, type OnError } from '../common/fault-policy.ts';
import { flagOverrides } from '../common/option-parsers.ts';
import { interrupts } from '../common/interrupts.ts';
import { invalidRunError } from '../results/run-stopped.ts';
import type { LiveMetrics } from '../metrics/live-metrics.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { ShardPart, type ShardFlags } from '../shard/shard-part.ts';

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
  /** `--shard`, `--shards`, `--barrier`…: the phase as one part of a sharded run. */
  shard?: ShardFlags;
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
  const whole = loadWorkloadFor({ ...options, overrides: rest });
  const part = ShardPart.of(options.shard ?? {}, process.env, {
    kind: 'ycsb',
    phase: options.phase,
    store: options.store,
    workload: whole.name,
    properties: whole.properties,
  });
  // A part runs its share of the whole: the same workload with its share of the properties.
  const workload = part ? { ...whole, properties: part.properties } : whole;
  const p = workload.properties;
  checkDbProperty(p, options.store);
  checkOutPath(p.exportfile, 'exportfile');
  if (p['hdrhistogram.fileoutput']) checkHdrLogPath(p['hdrhistogram.output.path']);
  await part?.open();
  const client = await YcsbClient.open({
    store: options.store,
    url: options.url,
    properties: p,
    ...(options.processes !== undefined ? { processes: options.processes } : {}),
    // No URL: docbench's local server (or the in-process BasicDB) shares this machine's cores.
    localStores: options.url === undefined ? [options.store] : [],
  }).catch((error: unknown) => {
    part?.close();
    throw error;
  });
  try {
    const request = {
      workload,
      label: `[${options.store} ${workload.name} ${options.phase}${part ? ` ${part.label}` : ''}]`,
      status: options.status,
      overrides: [...options.overrides, ...flagOverrides(options)],
      // The files as the user named them (none: a workload of -p assignments alone).
      workloadFile: workload.files.length > 0 ? options.workloadFiles.join(' ') : '',
      faults: withWorkloadBudget(given, p),
      ...(part ? { beforeStart: part.beforeStart } : {}),
      ...(options.metrics
        ? {
            metrics: {
              live: options.metrics,
              labels: { store: options.store, workload: workload.name, phase: options.phase },
            },
          }
        : {}),
    };
    const { result: measured, failure } =
      options.phase === 'load'
        ? await client.load({ ...request, table: options.fresh ? 'fresh' : 'guarded' })
        : await client.run({
            ...request,
            checkTableFor: workload.files.length > 0 ? options.workloadFiles.join(' -P ') : workload.name,
          });
    const result = part ? part.record(measured) : measured;
    // YCSB's exporter and exportfile decide where the measurements go; the JSON result is --out.
    if (options.print || p.exportfile !== undefined) exportMeasurements(result, p);
    if (options.out) writeResult(options.out, result);
    if (failure) throw failure;
    const invalid = invalidRunError(result, `${options.store} ${workload.name} ${options.phase}`);
    if (invalid) throw invalid;
    return result;
  } finally {
    part?.close();
    await client.close();
  }
}
