/**
 * A study preset: one paper's design as docbench steps, what the paper published, and every way a
 * run at a given scale differs from the paper, as data. `full` runs the paper's sizes exactly
 * (or is refused when the machine cannot hold them), `small` keeps the paper's shape on fewer
 * records, `tiny` is a smoke run; each preset says how its scales scale down.
 */
import type { Capability } from '../local/target.ts';
import type { Result } from '../results/schema.ts';
import type { ChartSpec } from '../report/chart-spec.ts';
import type { FigureTable } from '../report/html-page.ts';
import type { ArithmeticCheck, Deviation, PaperRatio, PaperStore, PublishedTable } from './paper.ts';
import { scenarioPlan, type ScenarioSweepAsk } from './scenario-sweep-plan.ts';
import type { SweepPlanInput } from './sweep-plan.ts';

export { SCALES, type Scale } from './scales.ts';
import type { Scale } from './scales.ts';

/** What the preset is asked to run: the scale, the stores, and a named variant if any. */
export interface StudyContext {
  scale: Scale;
  stores: readonly string[];
  variant?: string | undefined;
  /** `--nodes N`: the stores that run on a local cluster of N nodes, and N. */
  clusterStores?: readonly string[];
  /** The run's stores whose local target can run a cluster, with its fewest nodes. */
  clusterable?: readonly { store: string; minNodes: number }[];
  nodes?: number | undefined;
  /** `--repetitions N`: every step's rounds instead of the preset's (a deviation of its own). */
  repetitions?: number | undefined;
}

/**
 * What a scenario step will cost on one store, as the preset that made it knows: the estimate
 * multiplies it by the stores (and workloads) that run, so cells left out cost nothing.
 */
export interface StepCost {
  /** Steps with the same dataset replace each other's data (a reseed); different ones add up. */
  dataset: string;
  /** Records one store holds at once for this step, and their size each. */
  records: number;
  bytesPerRecord: number;
  /** Records loaded into one store in all (every size), timed at the assumed load rate. */
  loaded: number;
  /** Seconds of timed runs (their caps) of one store and one of the step's workloads. */
  runSeconds: number;
  /** Timed runs of one store and one of the step's workloads (a run per variant, size and thread count). */
  runs: number;
}

export type StudyStep =
  | { kind: 'sweep'; name: string; what: string; plan: SweepPlanInput }
  /**
   * A sweep of a scenario, named through the SCENARIOS table (its row says which commands run
   * a cell), with what it will cost as the preset knows it and what its workloads need of a
   * server beyond reading and writing by key (a stand-in without it cannot run them).
   */
  | {
      kind: 'scenario';
      name: string;
      what: string;
      plan: SweepPlanInput;
      cost: StepCost;
      needs: readonly Capability[];
    };

/**
 * One item of the paper's design beside this run: the paper's words with their location, what
 * docbench does, and whether that is the same. The items that differ are the run's deviations.
 */
export interface DesignItem extends Deviation {
  same: boolean;
}

/** A named variant of a preset: another reading of the paper, or docbench's own way. */
export interface PresetVariant {
  name: string;
  description: string;
}

export interface StudyPreset {
  name: string;
  title: string;
  /** The paper, as one cites it. */
  citation: string;
  /** The stores the paper ran, in its order, with the products and versions it names. */
  paperStores: readonly PaperStore[];
  /** Nodes of each store's cluster in the paper (its smallest, when it ran several) and where it says so; absent: one. */
  paperNodes?: { count: number; where: string };
  /** How each scale relates to the paper's sizes. */
  scales: Readonly<Record<Scale, string>>;
  variants: readonly PresetVariant[];
  published: readonly PublishedTable[];
  checks: readonly ArithmeticCheck[];
  steps(context: StudyContext): StudyStep[];
  /** The paper's design item by item beside this run (stores and stand-ins are added by deviations.ts). */
  design(context: StudyContext): DesignItem[];
  /** docbench's figures in the paper's shapes. */
  figures(results: readonly Result[]): FigureTable[];
  /** The ratios the paper states, each also computed from docbench's results (absent: it states none). */
  ratios?: readonly PaperRatio[];
  /** Charts in the paper's shapes, where it drew some. */
  charts?(results: readonly Result[]): ChartSpec[];
}

/** The preset's steps for this context, with `--repetitions` applied to every one. */
export function stepsOf(preset: StudyPreset, context: StudyContext): StudyStep[] {
  const steps = preset.steps(context);
  const n = context.repetitions;
  return n === undefined ? steps : steps.map((step) => ({ ...step, plan: { ...step.plan, repetitions: n } }));
}

export const by = <T>(scale: Scale, values: Record<Scale, T>): T => values[scale];

export function sweepStep(
  name: string,
  what: string,
  stores: readonly string[],
  plan: Omit<SweepPlanInput, 'stores' | 'reload' | 'extraFiles' | 'overrides'> & Partial<SweepPlanInput>,
): StudyStep {
  return {
    kind: 'sweep',
    name,
    what,
    plan: { stores: [...stores], reload: false, extraFiles: [], overrides: [], ...plan },
  };
}

/** A scenario sweep step: the scenario by its name in the SCENARIOS table, checked as `docbench sweep --scenario` checks it. */
export function scenarioStep(
  name: string,
  what: string,
  ask: ScenarioSweepAsk,
  cost: StepCost,
  needs: readonly Capability[],
): StudyStep {
  return { kind: 'scenario', name, what, plan: scenarioPlan(ask), cost, needs };
}

/** A design item where this run does what the paper did. */
export const same = (item: string, paper: string, docbench: string): DesignItem => ({
  item,
  paper,
  docbench,
  same: true,
});
/** A design item where it does not. */
export const differs = (item: string, paper: string, docbench: string): DesignItem => ({
  item,
  paper,
  docbench,
  same: false,
});

/** `values` at this scale, with "as the paper" when they are the paper's (full). */
export function sizes(scale: Scale, item: string, paper: string, docbench: string): DesignItem {
  return scale === 'full'
    ? same(item, paper, docbench)
    : differs(item, paper, `${docbench} (--scale ${scale}; --scale full runs the paper's)`);
}

/** What the run's stores run on, in words: one node each, or some on local clusters (`--nodes`). */
export function clusterWords(context: StudyContext, oneNode: string): string {
  const clustered = context.clusterStores ?? [];
  if (context.nodes === undefined || context.nodes <= 1 || clustered.length === 0) return oneNode;
  const others = context.stores.filter((s) => !clustered.includes(s));
  return `${clustered.join(' and ')} on local clusters of ${context.nodes} nodes on this one machine (--nodes ${context.nodes})${others.length > 0 ? `; ${others.join(', ')} one node each` : ''}`;
}

export const list = (values: readonly number[]) => values.map((v) => v.toLocaleString('en-US')).join(' / ');
