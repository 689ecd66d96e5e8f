/**
 * `docbench study <name> --plan`: what a run would do, without running anything: its steps with
 * their stores, workloads, records, operations, threads and repetitions; the paper's design item
 * by item beside this run; the published figures and the paper's arithmetic; and, for every
 * scale, the runs, the data and the time it would take, and whether `full` fits this machine.
 */
import { markdownTable } from '../report/markdown.ts';
import { ASSUMED_RATES, bytesText, estimateStep, estimateSteps, type Estimate } from './estimate.ts';
import { formatDuration } from './progress.ts';
import { SCALES, type DesignItem, type Scale, type StudyContext, type StudyPreset, type StudyStep } from './preset.ts';
import { arithmeticTable, figuresMarkdown, publishedFigures } from './published-tables.ts';
import { sweepCommandOf } from './scenario-sweep-plan.ts';

const override = (overrides: readonly string[], key: string) =>
  overrides
    .filter((o) => o.startsWith(`${key}=`))
    .at(-1)
    ?.slice(key.length + 1);

/** One step in words: what runs, with which settings, and the command when it is one. */
function stepText(step: StudyStep, index: number): string {
  const e = estimateStep(step);
  const cost = `${e.runs.toLocaleString('en-US')} runs, ${e.loaded.toLocaleString('en-US')} records loaded, about ${formatDuration(e.seconds)}`;
  if (step.kind === 'scenario')
    return `${index}. ${step.name}: ${step.what}\n   docbench ${sweepCommandOf(step.plan).join(' ')}\n   ${cost}`;
  const p = step.plan;
  const operations =
    p.operationsPerRecord !== undefined
      ? p.operationsPerRecord === 1
        ? 'as many as records'
        : `${p.operationsPerRecord * 100}% of the records`
      : Number(override(p.overrides, 'operationcount') ?? 10_000).toLocaleString('en-US');
  const cap = override(p.overrides, 'maxexecutiontime');
  const settings = [
    `stores: ${p.stores.join(', ')}`,
    `workloads: ${p.workloads.join(', ')}`,
    `records: ${p.records.map((n) => n.toLocaleString('en-US')).join(' / ')}`,
    `operations: ${operations}`,
    `threads: ${p.threads.join(' / ')}`,
    `repetitions: ${p.repetitions}`,
    ...(p.extraFiles.length > 0 ? [`record: ${p.extraFiles.join(', ')}`] : []),
    `time cap: ${cap === undefined ? '60 s' : cap === '0' ? 'none, every operation done' : `${cap} s`}`,
    ...p.overrides.filter((o) => !/^(operationcount|maxexecutiontime)=/.test(o)).map((o) => `-p ${o}`),
  ];
  return `${index}. ${step.name} (a sweep): ${step.what}\n   ${settings.join(' · ')}\n   ${cost}`;
}

function designTable(design: readonly DesignItem[]): string {
  return markdownTable(
    ['item', 'the paper (its words, where)', 'this run', ''],
    design.map((d) => [d.item, d.paper, d.docbench, d.same ? 'as the paper' : 'DIFFERS']),
  );
}

export interface ScaleVerdict {
  estimate: Estimate;
  /** Why the scale cannot run here, or undefined when it can. */
  refused?: string;
}

/** Whether `full` can run here: its data must fit the disk of the local servers (remote ones cannot be checked). */
export function fullVerdict(
  estimate: Estimate,
  free: { bytes: number; where: string } | undefined,
  anyLocal: boolean,
): string | undefined {
  if (!anyLocal || free === undefined || estimate.diskBytes <= free.bytes) return undefined;
  return `the paper's sizes need about ${bytesText(estimate.diskBytes)} of data on disk (before each store's own overhead), and ${free.where} has ${bytesText(free.bytes)} free; it would take about ${formatDuration(estimate.seconds)} at the assumed rates`;
}

export interface PlanInput {
  preset: StudyPreset;
  context: StudyContext;
  design: readonly DesignItem[];
  /** Each scale's estimate, and a refusal where the machine cannot run it. */
  verdicts: Readonly<Record<Scale, ScaleVerdict>>;
}

export function renderPlan({ preset, context, design, verdicts }: PlanInput): string {
  const steps = preset.steps(context);
  const differing = design.filter((d) => !d.same).length;
  const scaleRows = SCALES.map((scale) => {
    const { estimate, refused } = verdicts[scale];
    return [
      scale === context.scale ? `**${scale}**` : scale,
      preset.scales[scale],
      estimate.runs.toLocaleString('en-US'),
      estimate.loaded.toLocaleString('en-US'),
      bytesText(estimate.diskBytes),
      formatDuration(estimate.seconds),
      refused ? `REFUSED here: ${refused}` : 'runs here',
    ];
  });
  const variants =
    preset.variants.length > 0
      ? preset.variants.map((v) => `- \`--variant ${v.name}\`: ${v.description}`).join('\n')
      : '- none';
  return [
    `# ${preset.title}`,
    '',
    preset.citation,
    '',
    `docbench study ${preset.name} --scale ${context.scale}${context.variant ? ` --variant ${context.variant}` : ''} --plan: what the run would do; nothing has run.`,
    '',
    `## Runs (--scale ${context.scale}: ${preset.scales[context.scale]})`,
    '',
    steps.map((s, i) => stepText(s, i + 1)).join('\n'),
    '',
    "## The paper's design and this run",
    '',
    `${differing} of ${design.length} items differ from the paper: those are this run's deviations, printed before it runs, kept in every result and shown at the top of its report.`,
    '',
    designTable(design),
    '## Named variants',
    '',
    variants,
    '',
    '## Estimates per scale',
    '',
    `Time at assumed rates for one node (not measured: a real store differs by ten times either way): ${ASSUMED_RATES.loadRecordsPerSecond.toLocaleString('en-US')} records/s loading, ${ASSUMED_RATES.operationsPerSecond.toLocaleString('en-US')} operations/s, ${ASSUMED_RATES.scansPerSecond} scans/s; a run with a time cap ends at its cap. Disk: the raw data the stores hold at once, before each store's overhead (indexes, revisions, journals).`,
    '',
    markdownTable(['scale', 'what it runs', 'runs', 'records loaded', 'data on disk', 'time', 'here'], scaleRows),
    figuresMarkdown([...publishedFigures(preset), arithmeticTable(preset)]),
  ].join('\n');
}

/** Each scale's estimate for the context's stores and variant. */
export function scaleEstimates(preset: StudyPreset, context: StudyContext): Record<Scale, Estimate> {
  return Object.fromEntries(
    SCALES.map((scale) => [scale, estimateSteps(preset.steps({ ...context, scale }))]),
  ) as Record<Scale, Estimate>;
}
