/**
 * The exact merge of measurements from several sources: the worker processes of one client
 * (`runner/process-pool.ts`) and result files of several client machines (`mergeResults`).
 * Both go through `absorbRows`: each row's HDR histogram is decoded and its bucket counts are
 * added, status counts are summed and error samples joined. Nothing is averaged: the merged
 * percentiles are those of one histogram holding every sample (a p99 of p99s would be wrong).
 */
import { addEncodedHistogram } from '../measure/histogram.ts';
import { Measurements } from '../measure/measurements.ts';
import type { MeasuredPhase as PhaseOutcome } from './phase.ts';
import { isFaultNote } from './faults.ts';
import { lostWritesNote } from './lost-writes-note.ts';
import { mergeOperationSeries } from './merge-operation-series.ts';
import { storeWithProduct } from './product.ts';
import { buildResult } from './build.ts';
import { MergeError } from './merge-error.ts';
import { checkShards, mergedShards, saturationReason, wholeProperties } from './merge-shards.ts';
import { RESULT_SCHEMA_VERSION, type LostWrites, type MergedShards, type OperationResult, type Result } from './schema.ts';

export { MergeError };

/** Add rows (a worker's, or a result file's) into `into`: histograms, status counts, error samples. */
export function absorbRows(into: Measurements, rows: readonly OperationResult[]): void {
  for (const row of rows) {
    if (row.histogram !== undefined) addEncodedHistogram(into.histogramOf(row.name), row.histogram);
    else if (row.latency.operations > 0) throw new MergeError(`row ${row.name} has ${row.latency.operations} latencies but no histogram: it cannot be merged exactly (written by an older docbench?)`);
    if (row.returns !== undefined || row.errorSamples !== undefined) into.addCounts(row.name, row.returns ?? {}, row.errorSamples ?? []);
  }
}

export type TimeSeriesPoint = Result['timeSeries'][number];

/**
 * Time series of results that ran at the same time, second by second on the wall clock:
 * operations and rates add up. A point's p99 is the largest of the merged points' p99s, an upper
 * bound: a second's own histogram is not in a result file.
 */
export function mergeTimeSeries(results: readonly Result[]): TimeSeriesPoint[] {
  const origin = Math.min(...results.map((r) => Date.parse(r.startedAt)));
  const seconds = new Map<number, TimeSeriesPoint>();
  for (const result of results) {
    const offset = (Date.parse(result.startedAt) - origin) / 1000;
    for (const point of result.timeSeries) {
      const t = offset + point.t;
      const slot = Math.ceil(t - 1e-9);
      const merged = seconds.get(slot);
      if (merged === undefined) seconds.set(slot, { ...point, t: slot });
      else {
        merged.operations += point.operations;
        merged.opsPerSec = Math.round((merged.opsPerSec + point.opsPerSec) * 1000) / 1000;
        merged.p99Us = Math.max(merged.p99Us, point.p99Us);
        merged.warmup = merged.warmup || point.warmup;
        const failed = (merged.failed ?? 0) + (point.failed ?? 0);
        const outageCalls = (merged.outageCalls ?? 0) + (point.outageCalls ?? 0);
        if (failed > 0) merged.failed = failed;
        if (outageCalls > 0) merged.outageCalls = outageCalls;
      }
    }
  }
  return [...seconds.values()].sort((a, b) => a.t - b.t);
}

/** The measured window of a result on the wall clock: it ends at endedAt and lasts runtimeMs. */
function windowOf(result: Result): { start: number; end: number } {
  const end = Date.parse(result.endedAt);
  return { start: end - result.overall.runtimeMs, end };
}

/**
 * Merge the results of clients that ran the same workload against the same store at the same
 * time (one per machine): rows exactly (histograms), counts and CPU summed, and throughput
 * summed: each client's rate over its own window is its share of the load during the common
 * window (the time all of them were measuring), which is the runtime the merged result states.
 */
export function mergeResults(results: readonly Result[]): Result {
  const first = results[0];
  if (first === undefined) throw new MergeError('nothing to merge: no result given');
  // Parts of a sharded run: every part of one run exactly once, before anything else is compared.
  const parts = checkShards(results);
  for (const r of results) {
    if (r.schemaVersion !== RESULT_SCHEMA_VERSION) throw new MergeError(`a result has schema version ${r.schemaVersion}, expected ${RESULT_SCHEMA_VERSION}`);
    for (const [what, a, b] of [
      ['kind', r.kind, first.kind],
      ['phase', r.phase, first.phase],
      ['workload', r.workload.name, first.workload.name],
      ['store', r.store.name, first.store.name],
      // The same store name on another product (FerretDB behind --store mongodb) is another run.
      ['server', storeWithProduct(r.store), storeWithProduct(first.store)],
    ] as const) {
      if (a !== b) throw new MergeError(`cannot merge results of different runs: ${what} ${b} and ${a}`);
    }
  }
  const windows = results.map(windowOf);
  const commonStart = Math.max(...windows.map((w) => w.start));
  const commonEnd = Math.min(...windows.map((w) => w.end));
  if (results.length > 1 && commonEnd <= commonStart) throw new MergeError('the results did not measure at the same time: their measured windows do not overlap');

  const measurements = new Measurements(true, true);
  for (const r of results) {
    absorbRows(measurements, r.operations);
    measurements.measuredOperations += r.overall.operations;
    measurements.failedOperations += r.faults?.failedOperations ?? 0;
    measurements.warmupOperations += r.warmup.operations;
  }
  const sum = (of: (r: Result) => number) => results.reduce((total, r) => total + of(r), 0);
  const busy = results.flatMap((r) => r.clientCpu.eventLoopBusyPercent ?? []);
  const outcome: PhaseOutcome = {
    phase: first.phase,
    measurements,
    startedAt: new Date(Math.min(...results.map((r) => Date.parse(r.startedAt)))),
    endedAt: new Date(Math.max(...results.map((r) => Date.parse(r.endedAt)))),
    runtimeMs: results.length > 1 ? commonEnd - commonStart : first.overall.runtimeMs,
    timeSeries: mergeTimeSeries(results),
    ...optionalSeries(mergeOperationSeries(results)),
    cpu: { userMs: sum((r) => r.clientCpu.userMs), systemMs: sum((r) => r.clientCpu.systemMs), ...(busy.length > 0 ? { eventLoopBusyPercent: busy } : {}) },
    recordsLoaded: 0,
    // Failure notes are made again from the merged counts.
    notes: [...new Set(results.flatMap((r) => r.notes).filter((note) => !isFaultNote(note)))],
    processes: sum((r) => r.clientCpu.processes ?? 1),
    ...optionalReason(results),
  };
  const merged = buildResult(outcome, {
    kind: first.kind,
    mode: first.mode,
    workloadName: first.workload.name,
    ...(first.workload.file !== undefined ? { workloadFile: first.workload.file } : {}),
    properties: parts ? wholeProperties(first.workload.properties, parts[0]!.whole) : first.workload.properties,
    overrides: first.workload.overrides,
    store: first.store,
  });
  const lostWrites = mergeLostWrites(results);
  const throughput = sum((r) => r.overall.throughputOpsPerSec);
  const machines = [...new Set(results.map((r) => `${r.machine.cpus}×${r.machine.cpuModel}`))];
  const shards = parts ? mergedShards(results, parts) : undefined;
  const saturated = shards ? saturationReason(shards) : undefined;
  const verdict = merged.verdict && saturated ? { ...merged.verdict, status: 'invalid' as const, reasons: [...merged.verdict.reasons, saturated] } : merged.verdict;
  return {
    ...merged,
    machine: first.machine,
    ...(first.machineCpu ? { machineCpu: worstMachineCpu(results) } : {}),
    overall: { ...merged.overall, throughputOpsPerSec: Math.round(throughput * 1000) / 1000 },
    ...(lostWrites ? { lostWrites } : {}),
    // The clients of one run ran in the same round of an interleaved design.
    ...(first.repetition ? { repetition: first.repetition } : {}),
    ...(shards ? { shards } : {}),
    ...(verdict ? { verdict } : {}),
    notes: [
      ...merged.notes.filter((note) => !note.startsWith('LOST WRITES: ')),
      ...(lostWrites ? [lostWritesNote(lostWrites)] : []),
      `merged from ${results.length} results (client machines: ${machines.join('; ')}): histograms and counts added exactly, throughput summed over the common window, time-series p99 is the largest of the clients' (an upper bound)`,
      ...seriesNote(results, outcome.operationSeries !== undefined),
      ...(shards ? shardNotes(shards) : []),
    ],
  };
}

/** What a reader of a merged sharded run must know: the whole, the start, the keys, the saturated parts. */
function shardNotes(shards: MergedShards): string[] {
  return [
    `the ${shards.count} parts of one sharded run (settings ${shards.settings}${shards.runId !== undefined ? `, run ${shards.runId}` : ''}), each exactly once; ` +
      (shards.synchronised
        ? `started together at a barrier, ${shards.startSpreadMs} ms apart (on the coordinator's clock)`
        : `started without a barrier, ${shards.startSpreadMs} ms apart by the parts' own clocks`),
    ...(shards.keys ? [`keys ${shards.keys.first}…${shards.keys.first + shards.keys.count - 1} written, each by exactly one part`] : []),
    ...shards.saturated.map((s) => `part ${s.index} could not keep its share: ${s.detail}`),
  ];
}

/** Each client read back its own acknowledged writes: the counts add up. */
function mergeLostWrites(results: readonly Result[]): LostWrites | undefined {
  const checked = results.map((r) => r.lostWrites).filter((l): l is LostWrites => l !== undefined);
  if (checked.length === 0) return undefined;
  const total = (of: (l: LostWrites) => number) => checked.reduce((n, l) => n + of(l), 0);
  return {
    checkedRecords: total((l) => l.checkedRecords),
    checkedFields: total((l) => l.checkedFields),
    lostFields: total((l) => l.lostFields),
    lostRecords: total((l) => l.lostRecords),
    missingRecords: total((l) => l.missingRecords),
    unrecognisedFields: total((l) => l.unrecognisedFields),
    unreadableRecords: total((l) => l.unreadableRecords),
    untrackedWrites: total((l) => l.untrackedWrites),
    droppedFields: total((l) => l.droppedFields),
    readWith: checked[0]!.readWith,
    seconds: Math.max(...checked.map((l) => l.seconds)),
    samples: checked.flatMap((l) => l.samples).slice(0, 5),
  };
}

function optionalSeries(series: ReturnType<typeof mergeOperationSeries>): { operationSeries?: NonNullable<ReturnType<typeof mergeOperationSeries>> } {
  return series ? { operationSeries: series } : {};
}

/** What a reader of the merged per-operation series must know. */
function seriesNote(results: readonly Result[], merged: boolean): string[] {
  const withSeries = results.filter((r) => r.operationSeries !== undefined).length;
  if (withSeries === 0) return [];
  if (!merged) return ['the per-operation series were not merged: the results used different status.interval values'];
  const missing = results.length - withSeries;
  return [
    `per-operation series: each point's HDR histograms added exactly over the clients, points placed by the wall-clock interval they ended in${missing > 0 ? `; ${missing} result(s) had no series and are not in it` : ''}`,
  ];
}

/** The busiest machine's CPU figures: the one that says most about the run's conditions. */
function worstMachineCpu(results: readonly Result[]): NonNullable<Result['machineCpu']> {
  let worst = { busyPercent: 0, stealPercent: 0 };
  for (const r of results) {
    if (!r.machineCpu) continue;
    worst = { busyPercent: Math.max(worst.busyPercent, r.machineCpu.busyPercent), stealPercent: Math.max(worst.stealPercent, r.machineCpu.stealPercent) };
  }
  return worst;
}

/** Each client's reason for its number of processes, once each (absent when none gave one). */
function optionalReason(results: readonly Result[]): { processesReason?: string } {
  const reasons = [...new Set(results.map((r) => r.clientCpu.processesReason).filter((r): r is string => r !== undefined))];
  return reasons.length > 0 ? { processesReason: reasons.join('; ') } : {};
}
