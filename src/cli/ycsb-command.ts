import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildResult } from '../results/build.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { runLoadPhase, runTransactionPhase } from '../runner/phases.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { Random } from '../workload/random.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { LoadWrites, loadFailure, refuseLoadOverExistingRecords } from './load-guard.ts';
import { describeStore, openStore } from './store-session.ts';

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
  out?: string;
  /** Drop and re-create the table before loading. */
  fresh?: boolean;
  /** Print status lines on stderr. */
  status: boolean;
  /** Print YCSB text on stdout. */
  print: boolean;
}

/** Check an output path before any work, so a bad --out fails fast and nothing is half-written. */
export function checkOutPath(out: string | undefined): void {
  if (out === undefined) return;
  if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a directory; expected a file path`);
  const dir = dirname(out);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--out ${out}: ${dir} is not a directory`);
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
  const workload = loadWorkload(options.workloadFiles, [...(options.storeSettings ?? []), ...options.overrides, ...flagOverrides(options)]);
  const p = workload.properties;
  if (options.phase === 'run' && p.operationcount === 0 && p.maxexecutiontime === 0) {
    throw new UsageError('the run phase needs operationcount > 0 or maxexecutiontime > 0');
  }
  if (options.phase === 'load' && p.insertcount === 0) {
    throw new UsageError('nothing to load: recordcount (or insertcount) is 0');
  }
  return workload;
}

/** `docbench load` / `docbench run`: one YCSB phase against one store. */
export async function runYcsbPhase(options: YcsbCommandOptions): Promise<Result> {
  checkOutPath(options.out);
  const workload = loadWorkloadFor(options);
  const p = workload.properties;
  const open = await openStore(options.store, options.url, p);
  try {
    const core = new CoreWorkload(p, new Random(p.seed));
    const schema = { table: core.table, fieldNames: core.fieldNames };
    if (options.phase === 'load') {
      if (options.fresh) await open.store.drop(schema);
      await open.store.prepare(schema);
      if (!options.fresh) await refuseLoadOverExistingRecords(open.store, options.store, core, p);
    }
    const writes = new LoadWrites(open.store);
    const phaseOptions = { store: options.phase === 'load' ? writes.store : open.store, workload: core, properties: p, status: options.status, label: `[${options.store} ${workload.name} ${options.phase}]` };
    const outcome = options.phase === 'load' ? await runLoadPhase(phaseOptions) : await runTransactionPhase(phaseOptions);
    const failure = options.phase === 'load' ? loadFailure(outcome, writes, options.store) : null;
    const storeInfo = await describeStore(open);
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: workload.name,
      ...(workload.files.length > 0 ? { workloadFile: options.workloadFiles.join(' ') } : {}),
      properties: p,
      overrides: [...options.overrides, ...flagOverrides(options)],
      store: storeInfo,
    });
    if (options.print) process.stdout.write(renderYcsbText(result));
    if (options.out) writeResult(options.out, result);
    if (failure) throw failure;
    return result;
  } finally {
    await open.store.close();
  }
}
