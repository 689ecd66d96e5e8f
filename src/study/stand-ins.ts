/**
 * What a local stand-in cannot run, found before a study runs. Each stand-in declares the kinds
 * of work it lacks (its local target's `cannot`, in the store's folder); each step says what its
 * workloads need (a YCSB workload with scans needs `scan`; a scenario step declares its own). A
 * cell that needs what its store's stand-in lacks is left out of the step's plan, and so of the
 * estimate, and named with the way to run it on the product (`--docker`, `--url`): run anyway,
 * it would only measure refusals and come back INVALID.
 */
import type { Capability, TargetInfo } from '../local/target.ts';
import type { UrlSource } from '../session/store-targets.ts';
import { dockerUrl, isStoreName, STORES, type StoreEntry } from '../stores/stores.ts';
import { estimateStep } from './estimate.ts';
import type { StudyStep } from './preset.ts';
import { SWEEP_DEFAULTS, workloadAt, type LeftOutCells } from './sweep-plan.ts';

/** What docbench's local server for a store is, or undefined when it has none (or cannot say). */
export async function localInfo(store: string): Promise<TargetInfo | undefined> {
  if (!isStoreName(store)) return undefined;
  const entry: StoreEntry = STORES[store];
  if (!entry.localTarget) return undefined;
  try {
    return await (await entry.localTarget()).localTarget.info();
  } catch {
    return undefined;
  }
}

/** A store of the run on a local server that declares what it cannot do. */
export interface StandInGap {
  store: string;
  product: string;
  cannot: Readonly<Partial<Record<Capability, string>>>;
}

/** The declared gaps of the local servers this run uses (a store named by --url, --docker or the config has none). */
export async function standInGaps(
  stores: readonly string[],
  sourceOf: (store: string) => UrlSource,
  infoOf: (store: string) => Promise<TargetInfo | undefined> = localInfo,
): Promise<StandInGap[]> {
  const gaps: StandInGap[] = [];
  for (const store of stores) {
    if (sourceOf(store) !== 'local') continue;
    const info = await infoOf(store);
    if (info?.cannot && Object.keys(info.cannot).length > 0)
      gaps.push({ store, product: info.product, cannot: info.cannot });
  }
  return gaps;
}

/** What a step's workload needs of a server beyond reading and writing by key. */
export function workloadNeeds(step: StudyStep, workload: string): readonly Capability[] {
  if (step.kind === 'scenario') return step.needs;
  const plan = step.plan;
  const p = workloadAt(plan, [...SWEEP_DEFAULTS, ...plan.overrides], workload, plan.records[0]!, plan.threads[0]!);
  return p.properties.scanproportion > 0 ? ['scan'] : [];
}

/** One store's cells of one step that its stand-in cannot run: which, why, and what they would have cost. */
export interface LeftOut {
  step: string;
  store: string;
  product: string;
  workloads: string[];
  /** The stand-in's own words for each gap the workloads meet. */
  why: string[];
  runs: number;
  seconds: number;
}

/** The cells in words: the step, and its workloads where they are not the step's own name (`ycsb's e`, `join`). */
export function cellsWords(l: Pick<LeftOut, 'step' | 'workloads'>): string {
  return l.workloads.length === 1 && l.workloads[0] === l.step ? l.step : `${l.step}'s ${l.workloads.join(', ')}`;
}

/** The steps with the cells their stores' stand-ins cannot run left out of their plans, and those cells. */
export function leaveOutGaps(
  steps: readonly StudyStep[],
  gaps: readonly StandInGap[],
): { steps: StudyStep[]; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const planned = steps.map((step): StudyStep => {
    const cells: LeftOutCells[] = [];
    for (const gap of gaps.filter((g) => step.plan.stores.includes(g.store))) {
      const why = new Set<string>();
      const workloads = step.plan.workloads.filter((w) => {
        const lacking = workloadNeeds(step, w).filter((c) => gap.cannot[c] !== undefined);
        for (const c of lacking) why.add(gap.cannot[c]!);
        return lacking.length > 0;
      });
      if (workloads.length === 0) continue;
      const mine = { store: gap.store, workloads };
      const full = estimateStep(step);
      const without = estimateStep({ ...step, plan: { ...step.plan, leaveOut: [mine] } });
      leftOut.push({
        step: step.name,
        store: gap.store,
        product: gap.product,
        workloads,
        why: [...why],
        runs: full.runs - without.runs,
        seconds: full.seconds - without.seconds,
      });
      cells.push(mine);
    }
    // A plan with nothing left out stays exactly as it was (a sweep folder's state compares plans).
    return cells.length === 0 ? step : { ...step, plan: { ...step.plan, leaveOut: cells } };
  });
  return { steps: planned, leftOut };
}

/**
 * How to run a store on a real server instead: the study with `--docker` after `docbench up
 * --docker <store>`, where docker/compose.yaml has the store; with `--url` on a server of one's own.
 */
export interface RealServerCommands {
  /** `up --docker <store>`, then the study with `--docker`; absent when the compose file has no such server. */
  docker?: { up: string[]; study: string[] };
  /** The study with `--url <store>=URL` (URL: the server's). */
  url: string[];
}

export function realServerCommands(store: string, studyArgs: readonly string[]): RealServerCommands {
  const study = [...studyArgs, '--stores', store];
  return {
    ...(isStoreName(store) && dockerUrl(store) !== undefined
      ? { docker: { up: ['up', '--docker', store], study: [...study, '--docker'] } }
      : {}),
    url: [...study, '--url', `${store}=URL`],
  };
}

/** The same in one sentence, for a status line or an error. */
export function realServerWords(store: string, studyArgs: readonly string[]): string {
  const ways = realServerCommands(store, studyArgs);
  const url = `docbench ${ways.url.join(' ')} (URL: your server's)`;
  return ways.docker
    ? `docbench ${ways.docker.up.join(' ')}, then docbench ${ways.docker.study.join(' ')}; or ${url}`
    : url;
}
