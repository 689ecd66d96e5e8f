import type { Result } from '../results/schema.ts';
import { compatibleProduct, compatibleWords } from '../results/product.ts';
import { distinct, recordsOf, seriesLabel, storeLabel, threadsOf, workloadLabel } from './groups.ts';

/**
 * What every chart and table of a report says about the runs it shows: what ran, where, with
 * which versions, and which stores were stand-ins (named as not being the product).
 */
export function machineLine(results: readonly Result[]): string {
  const machines = distinct(
    results.map((r) => {
      const m = r.machine;
      return `${m.cpus} × ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${m.platform} ${m.release}, node ${m.node}`;
    }),
  );
  const docbench = distinct(results.map((r) => r.machine.docbench));
  return `where: ${machines.join('; ')} · docbench ${docbench.join(', ')}`;
}

export function whatRanLine(results: readonly Result[]): string {
  const workloads = distinct(results.map(workloadLabel));
  const stores = distinct(results.map(storeLabel));
  const modes = distinct(results.map((r) => (r.mode === 'http' ? 'end to end (HTTP)' : 'direct')));
  const shown =
    workloads.length > 8 ? `${workloads.slice(0, 8).join(', ')} … (${workloads.length})` : workloads.join(', ');
  return `what: ${shown} on ${stores.join(', ')}; ${modes.join(' and ')}`;
}

export function versionsLine(results: readonly Result[]): string {
  const versions = distinct(
    results.map((r) => {
      const s = r.store;
      // A stand-in often reports the product's version number: name it as what the server reports.
      const server = s.standIn
        ? `${s.standIn.name} ${s.standIn.version}${s.serverVersion && !s.standIn.version.includes(s.serverVersion) ? ` (reports ${s.serverVersion})` : ''}`
        : s.compatible
          ? `${compatibleProduct(s.compatible)} (${compatibleWords(s.compatible)})`
          : `${s.server.replace(/\s*\(.*\)$/, '')} ${s.serverVersion}`;
      return `${s.name}: ${server} via ${s.driver}`;
    }),
  );
  return `versions: ${versions.join('; ')}`;
}

/** Empty when no store was a stand-in. */
export function standInLine(results: readonly Result[]): string | undefined {
  const standIns = distinct(
    results
      .filter((r) => r.store.standIn)
      .map((r) => `${r.store.name} = ${r.store.standIn!.name} ${r.store.standIn!.version}`),
  );
  return standIns.length > 0 ? `STAND-INS, not the real products: ${standIns.join('; ')}` : undefined;
}

/** The lines under a chart's title. */
export function contextLines(results: readonly Result[]): string[] {
  return [whatRanLine(results), machineLine(results), versionsLine(results), standInLine(results)].filter(
    (l): l is string => l !== undefined,
  );
}

/**
 * A chart's own caption: what ran, on which stores, which run (its settings and when). The
 * machine, the versions and the stand-ins are said once, at the top of the page.
 */
export function captionOf(results: readonly Result[]): string[] {
  const workloads = distinct(results.map(workloadLabel));
  const stores = distinct(results.map(seriesLabel));
  const records = distinct(results.map(recordsOf).filter((n): n is number => n !== undefined));
  const threads = distinct(results.map(threadsOf).filter((n): n is number => n !== undefined));
  const settings = [
    records.length === 1 ? `${records[0]!.toLocaleString('en-US')} records` : '',
    threads.length === 1 ? `${threads[0]} threads` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const what = `${workloads.length > 4 ? `${workloads.length} workloads` : workloads.join(', ')} on ${stores.length > 4 ? `${stores.length} stores` : stores.join(', ')}`;
  return [[what, settings, runTimes(results)].filter(Boolean).join(' · ')];
}

/** When the runs were made, to the minute (UTC): one time, or the first and last. */
function runTimes(results: readonly Result[]): string {
  const starts = results.map((r) => r.startedAt).sort();
  if (starts.length === 0) return '';
  const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  const first = minute(starts[0]!);
  const last = minute(starts[starts.length - 1]!);
  return first === last
    ? `run ${first} UTC`
    : `runs ${first} – ${last.slice(first.slice(0, 10) === last.slice(0, 10) ? 11 : 0)} UTC`;
}
