/**
 * `docbench study <name> --plan`: what a run would do, without running anything, in lines a
 * terminal shows whole: its steps with their cost and the docbench commands that run them; the
 * cells a local stand-in cannot run, left out of the runs and the estimate, with the way to run
 * them on the product; the stores and how the run differs from the paper; each scale's runs,
 * data and time, and whether `full` fits this machine. `--details` adds every design item beside
 * the paper's words, the published figures and the paper's arithmetic.
 */
import type { FigureTable } from '../report/html-page.ts';
import { markdownTable } from '../report/markdown.ts';
import { ASSUMED_RATES, bytesText, estimateStep, estimateSteps, type Estimate } from './estimate.ts';
import { formatDuration } from './progress.ts';
import {
  SCALES,
  stepsOf,
  type DesignItem,
  type Scale,
  type StudyContext,
  type StudyPreset,
  type StudyStep,
} from './preset.ts';
import { arithmeticSummary, arithmeticTable, publishedFigures } from './published-tables.ts';
import { cellsWords, realServerCommands, type LeftOut } from './stand-ins.ts';
import { stepCommands } from './step-commands.ts';
import { WIDTH, wrap, wrapCommand } from './text-wrap.ts';

const INDENT = '   ';
const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

function costText(e: Estimate): string {
  return `${plural(e.runs, 'run')}, ${count(e.loaded)} records loaded, about ${formatDuration(e.seconds)}`;
}

/** Cells left out, with their cost: `workload-e's e (5 runs, about 7m05s)`. */
function leftOutCost(l: LeftOut): string {
  return `${cellsWords(l)} (${plural(l.runs, 'run')}, about ${formatDuration(l.seconds)})`;
}

/** One step: what runs, its cost, the commands that run it, what a stand-in leaves out of it. */
function stepText(step: StudyStep, index: number, leftOut: readonly LeftOut[]): string {
  const kind = step.kind === 'scenario' ? `a sweep of the ${step.plan.scenario} scenario` : 'a YCSB sweep';
  const commands = stepCommands(step);
  const mine = leftOut.filter((l) => l.step === step.name);
  return [
    wrap(`${index}. ${step.name}, ${kind}: ${step.what}`, '', INDENT),
    `${INDENT}${costText(estimateStep(step))}`,
    ...(commands.length === 0
      ? [`${INDENT}nothing runs here: a stand-in cannot run any of its cells`]
      : commands.map((c) => wrapCommand(c, INDENT))),
    ...mine.map((l) =>
      wrap(`left out: ${l.store}: ${leftOutCost(l)}, which ${l.product} cannot run (below)`, INDENT, `${INDENT}  `),
    ),
  ].join('\n');
}

/** The cells the local stand-ins cannot run, each store with why and the way to run them on a real server. */
function leftOutSection(leftOut: readonly LeftOut[], studyArgs: readonly string[]): string[] {
  if (leftOut.length === 0) return [];
  const stores = [...new Set(leftOut.map((l) => l.store))];
  return [
    '## What the local stand-ins cannot run',
    '',
    wrap(
      'Left out of the runs and of the estimate: on the stand-in every such operation would be refused (UNSUPPORTED) and the run INVALID.',
    ),
    '',
    ...stores.map((store) => {
      const mine = leftOut.filter((l) => l.store === store);
      const why = [...new Set(mine.flatMap((l) => l.why))].join('; ');
      const ways = realServerCommands(store, studyArgs);
      return [
        wrap(`- ${store} on ${mine[0]!.product}: ${why}. Left out: ${mine.map(leftOutCost).join('; ')}.`, '', '  '),
        ...(ways.docker
          ? [
              '  To run them on the real server of docker/compose.yaml:',
              wrapCommand(ways.docker.up, '    '),
              wrapCommand(ways.docker.study, '    '),
            ]
          : []),
        '  To run them on a server of yours (URL: its address, as --url takes it):',
        wrapCommand(ways.url, '    '),
      ].join('\n');
    }),
    '',
  ];
}

/** The stores' items in full (what each runs on matters most), the other differences by name. */
function designSummary(design: readonly DesignItem[]): string[] {
  const stores = design.filter((d) => d.item.startsWith('store: '));
  const others = design.filter((d) => !d.item.startsWith('store: '));
  const names = (items: readonly DesignItem[]) => items.map((d) => d.item).join(', ');
  const differing = others.filter((d) => !d.same);
  const sameItems = others.filter((d) => d.same);
  return [
    "## The paper's design beside this run",
    '',
    wrap(
      `${design.filter((d) => !d.same).length} of ${design.length} items differ from the paper: the run's deviations, printed before it runs and kept in every result.`,
    ),
    '',
    ...stores.map((d) => wrap(`- ${d.item}: ${d.docbench}`, '', '  ')),
    ...(differing.length > 0 ? [wrap(`- also different: ${names(differing)}`, '', '  ')] : []),
    ...(sameItems.length > 0 ? [wrap(`- as the paper: ${names(sameItems)}`, '', '  ')] : []),
    '',
  ];
}

/** Every design item beside the paper's words (`--details`). */
function designDetails(design: readonly DesignItem[]): string[] {
  return [
    "## The paper's design beside this run, item by item",
    '',
    ...design.map((d) =>
      [
        `- ${d.item}: ${d.same ? 'as the paper' : 'DIFFERS'}`,
        wrap(`the paper: ${d.paper}`, '  ', '    '),
        wrap(`this run: ${d.docbench}`, '  ', '    '),
      ].join('\n'),
    ),
    '',
  ];
}

/**
 * Figure tables in lines that fit (`--details`): a table as Markdown where it fits, else each
 * row as a line of `column: cell` pairs.
 */
function narrowFigures(figures: readonly FigureTable[]): string[] {
  return figures.flatMap((f) => {
    const table = f.rows.length > 0 ? markdownTable(f.header, f.rows).trimEnd() : '(none)';
    const fits = table.split('\n').every((line) => Buffer.byteLength(line, 'utf8') <= WIDTH);
    const rows = f.rows.map((row) =>
      wrap(
        `- ${row[0] ?? ''}: ${f.header
          .slice(1)
          .map((h, i) => `${h}: ${row[i + 1] || '—'}`)
          .join('; ')}`,
        '',
        '    ',
      ),
    );
    return [wrap(`## ${f.title}`, '', '   '), '', wrap(f.note), '', ...(fits ? [table] : rows), ''];
  });
}

/** The published figures in one paragraph: their tables by title and whether the paper's arithmetic holds. */
function figuresSummary(preset: StudyPreset, details: boolean): string[] {
  const { holding, total, off } = arithmeticSummary(preset);
  const arithmetic =
    total === 0
      ? 'the paper prints no totals or ratios to re-compute'
      : off.length === 0
        ? `all ${total} of the totals, ratios and conversions it prints agree with its other figures`
        : `${holding} of the ${total} totals, ratios and conversions it prints agree with its other figures, ${off.length} ${off.length === 1 ? 'does' : 'do'} not`;
  const ratios = preset.ratios?.length
    ? ` A run also computes the ${preset.ratios.length} ratios the paper states from docbench's own results, beside the paper's.`
    : '';
  return [
    "## The paper's figures",
    '',
    wrap(
      `${plural(preset.published.length, 'table')} of the paper's figures (${preset.published.map((t) => t.title.replace(/\.$/, '')).join('; ')}); ${arithmetic}. ${details ? 'They follow' : '--details prints them'}; a run prints them beside docbench's.${ratios}`,
    ),
    '',
  ];
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

function estimatesSection(
  preset: StudyPreset,
  context: StudyContext,
  verdicts: Readonly<Record<Scale, ScaleVerdict>>,
  leftOut: boolean,
): string[] {
  const rows = SCALES.map((scale) => {
    const { estimate, refused } = verdicts[scale];
    return [
      scale === context.scale ? `**${scale}**` : scale,
      count(estimate.runs),
      count(estimate.loaded),
      bytesText(estimate.diskBytes),
      formatDuration(estimate.seconds),
      refused ? 'REFUSED here (below)' : 'runs here',
    ];
  });
  return [
    '## Estimates per scale',
    '',
    wrap(
      `Time at assumed rates for one node (not measured: a real store differs by ten times either way): ${count(ASSUMED_RATES.loadRecordsPerSecond)} records/s loading, ${count(ASSUMED_RATES.operationsPerSecond)} operations/s, ${ASSUMED_RATES.scansPerSecond} scans/s; a run with a time cap ends at its cap. Disk: the raw data the stores hold at once, before each store's overhead (indexes, revisions, journals).${leftOut ? ' The cells the stand-ins cannot run are left out at every scale.' : ''}`,
    ),
    '',
    markdownTable(['scale', 'runs', 'records loaded', 'data on disk', 'time', 'here'], rows, [
      'left',
      'right',
      'right',
      'right',
      'right',
      'left',
    ]).trimEnd(),
    '',
    ...SCALES.flatMap((scale) => {
      const refused = verdicts[scale].refused;
      return [
        wrap(`- ${scale}: ${preset.scales[scale]}`, '', '  '),
        ...(refused ? [wrap(`REFUSED here: ${refused}`, '  ')] : []),
      ];
    }),
    '',
  ];
}

export interface PlanInput {
  preset: StudyPreset;
  context: StudyContext;
  /** The steps as they will run (cells the stand-ins cannot run left out). */
  steps: readonly StudyStep[];
  design: readonly DesignItem[];
  /** Each scale's estimate, and a refusal where the machine cannot run it. */
  verdicts: Readonly<Record<Scale, ScaleVerdict>>;
  /** The cells left out of the steps, and why. */
  leftOut?: readonly LeftOut[];
  /** `--details`: every design item, the published figures and the arithmetic. */
  details?: boolean;
}

/** The study command as typed, without --plan (the way to run left-out cells starts from it). */
export function studyArgs(preset: StudyPreset, context: StudyContext): string[] {
  return [
    'study',
    preset.name,
    '--scale',
    context.scale,
    ...(context.variant ? ['--variant', context.variant] : []),
    ...(context.repetitions !== undefined ? ['--repetitions', String(context.repetitions)] : []),
  ];
}

export function renderPlan({ preset, context, steps, design, verdicts, leftOut = [], details }: PlanInput): string {
  const args = studyArgs(preset, context);
  const variants =
    preset.variants.length > 0
      ? preset.variants.map((v) => wrap(`- --variant ${v.name}: ${v.description}`, '', '  '))
      : ['- none'];
  return [
    wrap(`# ${preset.title}`, '', '  '),
    '',
    wrap(preset.citation),
    '',
    wrap(
      `docbench ${[...args, '--plan'].join(' ')}: what the run would do; nothing has run.${details ? '' : " Add --details for every design item beside the paper's words, its published figures and its arithmetic."}`,
    ),
    '',
    wrap(`## Runs (--scale ${context.scale}: ${preset.scales[context.scale]})`, '', '   '),
    '',
    steps.map((s, i) => stepText(s, i + 1, leftOut)).join('\n'),
    '',
    ...leftOutSection(leftOut, args),
    ...designSummary(design),
    '## Named variants',
    '',
    ...variants,
    '',
    ...estimatesSection(preset, context, verdicts, leftOut.length > 0),
    ...figuresSummary(preset, details === true),
    ...(details
      ? [...designDetails(design), ...narrowFigures([...publishedFigures(preset), arithmeticTable(preset)])]
      : []),
  ]
    .join('\n')
    .trimEnd();
}

/** Each scale's estimate for the context's stores and variant, with `steps` leaving out what they leave out. */
export function scaleEstimates(
  preset: StudyPreset,
  context: StudyContext,
  plannedSteps: (steps: StudyStep[]) => StudyStep[] = (steps) => steps,
): Record<Scale, Estimate> {
  return Object.fromEntries(
    SCALES.map((scale) => [scale, estimateSteps(plannedSteps(stepsOf(preset, { ...context, scale })))]),
  ) as Record<Scale, Estimate>;
}
