/**
 * A preset's design beside the run about to be made: the paper's own items (the preset's), then
 * its stores one by one: which ones docbench runs, which it cannot (a store docbench does not
 * have yet is left out and said so), and what each one runs on (a local stand-in, a local real
 * server of another version, or a server the user named). The items that differ are the run's
 * deviations, printed before it and kept in every result.
 */
import { isStoreName } from '../stores/stores.ts';
import type { StudyInfo } from '../results/schema.ts';
import type { UrlSource } from '../session/store-targets.ts';
import { nodeItems } from './clusters.ts';
import { differs, type DesignItem, type StudyContext, type StudyPreset } from './preset.ts';

/**
 * `--repetitions N` beside the preset's own count: an item of its own (the preset's repetitions
 * item, where it has one, keeps what the paper said), none when N is the preset's.
 */
export function repetitionsItem(preset: StudyPreset, context: StudyContext): DesignItem[] {
  const n = context.repetitions;
  if (n === undefined) return [];
  const own = [...new Set(preset.steps({ ...context, repetitions: undefined }).map((s) => s.plan.repetitions))];
  if (own.length === 1 && own[0] === n) return [];
  const paper = preset.design(context).find((d) => d.item === 'repetitions')?.paper ?? 'not stated';
  return [
    differs(
      'repetitions (--repetitions)',
      paper,
      `${n} run${n === 1 ? '' : 's'} of each cell${n > 1 ? `, in ${n} interleaved rounds` : ''} (--repetitions ${n}; the preset runs ${own.join(' / ')})`,
    ),
  ];
}
import { cellsWords, localInfo, type LeftOut } from './stand-ins.ts';

/** The paper's stores docbench can run: a preset's default. */
export function paperStoresHere(preset: StudyPreset): string[] {
  return preset.paperStores.map((s) => s.store).filter((s) => isStoreName(s));
}

/** Where each store of the run is: docbench's local server or a URL from somewhere. */
export type StoreSource = (store: string) => UrlSource;

/** One item per store: the paper's product beside what this run uses for it. */
export async function storeItems(
  preset: StudyPreset,
  stores: readonly string[],
  sourceOf: StoreSource,
  clusterStores: readonly string[] = [],
  nodes?: number,
  leftOut: readonly LeftOut[] = [],
): Promise<DesignItem[]> {
  const items: DesignItem[] = [];
  for (const paper of preset.paperStores) {
    const said = `${paper.product} (${paper.where})`;
    if (!isStoreName(paper.store)) {
      items.push(
        differs(
          `store: ${paper.store}`,
          said,
          `not run: docbench has no ${paper.store} store, so this run leaves out one of the paper's ${preset.paperStores.length} stores`,
        ),
      );
    } else if (!stores.includes(paper.store)) {
      items.push(differs(`store: ${paper.store}`, said, 'not run: --stores left it out'));
    } else if (sourceOf(paper.store) !== 'local') {
      const by = { '--url': '--url', '--docker': '--docker (docker/compose.yaml)', config: 'the config file' }[
        sourceOf(paper.store) as '--url' | '--docker' | 'config'
      ];
      items.push(
        differs(
          `store: ${paper.store}`,
          said,
          `the server named by ${by}; its product and version are in every result`,
        ),
      );
    } else {
      const info = await localInfo(paper.store);
      const what = info?.product ?? `docbench's local ${paper.store} server`;
      items.push(
        differs(
          `store: ${paper.store}`,
          said,
          info?.standIn
            ? `${what}, docbench's local STAND-IN: its figures say nothing about ${paper.product}${leftOutWords(paper.store, leftOut)}`
            : `${what}, docbench's local server (not the paper's version; ${nodes !== undefined && nodes > 1 && clusterStores.includes(paper.store) ? `a local cluster of ${nodes} nodes` : 'one node'})`,
        ),
      );
    }
  }
  for (const store of stores.filter((s) => !preset.paperStores.some((p) => p.store === s))) {
    items.push(
      differs(
        `store: ${store}`,
        "not one of the paper's stores",
        `run as well (--stores)${sourceOf(store) === 'local' ? ", on docbench's local server" : ''}`,
      ),
    );
  }
  return items;
}

/** What a stand-in leaves out, in the words of its store's design item. */
function leftOutWords(store: string, leftOut: readonly LeftOut[]): string {
  const mine = leftOut.filter((l) => l.store === store);
  if (mine.length === 0) return '';
  const cells = mine.map(cellsWords).join('; ');
  const why = [...new Set(mine.flatMap((l) => l.why))].join('; ');
  return `; it cannot run ${cells} (${why}): left out of this run; --docker or --url runs them on a real server`;
}

/** The paper's design beside this run, stores included (and what their stand-ins leave out). */
export async function studyDesign(
  preset: StudyPreset,
  context: StudyContext,
  sourceOf: StoreSource,
  leftOut: readonly LeftOut[] = [],
): Promise<DesignItem[]> {
  const clustered = context.clusterStores ?? [];
  return [
    ...(await storeItems(preset, context.stores, sourceOf, clustered, context.nodes, leftOut)),
    ...nodeItems(preset, context, sourceOf),
    ...preset.design(context),
    ...repetitionsItem(preset, context),
  ];
}

/** What every result of the run keeps: the study and the items that differ. */
export function studyInfo(
  preset: StudyPreset,
  context: StudyContext,
  design: readonly DesignItem[],
  step?: string,
): StudyInfo {
  return {
    name: preset.name,
    title: preset.title,
    scale: context.scale,
    ...(context.variant ? { variant: context.variant } : {}),
    ...(step ? { step } : {}),
    deviations: design.filter((d) => !d.same).map(({ item, paper, docbench }) => ({ item, paper, docbench })),
  };
}
