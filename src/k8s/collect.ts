/**
 * `docbench k8s collect` and `k8s k6-collect`: each part's result out of its pod's log (through
 * kubectl, or from logs the user saved), one file per part, for the merge.
 */
import { basename, extname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { UsageError } from '../common/user-error.ts';
import { writeFileAtomic } from '../results/write.ts';
import { CONTAINER } from './job-manifests.ts';
import { logOf, objectOf, podsOf, type PodFacts } from './kubectl.ts';
import { resultOfLog } from './log-results.ts';

export interface PartLog {
  /** How a message names the part: `part 3 (pod x-3-abcde)`, or the file. */
  label: string;
  /** The part file's name, without folder. */
  fileName: string;
  log: string;
}

/** The container of a k6-operator runner pod. */
const K6_CONTAINER = 'k6';

/** Each part's log from the cluster: one succeeded pod per index of the Indexed Job, or a line saying which are missing. */
export function jobPartLogs(job: string, namespace: string | undefined): PartLog[] {
  const spec = (objectOf('job', job, namespace).spec ?? {}) as { completions?: number };
  const pods = podsOf(`job-name=${job}`, namespace);
  const indexOf = (p: PodFacts) => Number(p.annotations['batch.kubernetes.io/job-completion-index']);
  return finishedPods(`job ${job}`, spec.completions ?? 1, pods, indexOf, `kubectl get pods -l job-name=${job}`).map(
    (pod, i) => ({
      label: `part ${i} (pod ${pod.name})`,
      fileName: `part-${i}.json`,
      log: logOf(pod.name, CONTAINER, namespace),
    }),
  );
}

/** Each runner's log of a k6-operator TestRun: runners are Jobs `<name>-1` … `<name>-N`. */
export function testRunLogs(testRun: string, namespace: string | undefined): PartLog[] {
  const spec = (objectOf('testrun', testRun, namespace).spec ?? {}) as { parallelism?: number };
  const pods = podsOf(`k6_cr=${testRun},runner=true`, namespace);
  const indexOf = (p: PodFacts) => Number((p.labels['job-name'] ?? '').slice(testRun.length + 1)) - 1;
  return finishedPods(
    `testrun ${testRun}`,
    spec.parallelism ?? 1,
    pods,
    indexOf,
    `kubectl get pods -l k6_cr=${testRun},runner=true`,
  ).map((pod, i) => ({
    label: `runner ${i + 1} (pod ${pod.name})`,
    fileName: `runner-${i + 1}.json`,
    log: logOf(pod.name, K6_CONTAINER, namespace),
  }));
}

function finishedPods(
  what: string,
  count: number,
  pods: readonly PodFacts[],
  indexOf: (pod: PodFacts) => number,
  listCommand: string,
): PodFacts[] {
  const chosen: PodFacts[] = [];
  const missing: string[] = [];
  for (let i = 0; i < count; i++) {
    const mine = pods.filter((p) => indexOf(p) === i);
    const done = mine.find((p) => p.phase === 'Succeeded');
    if (done !== undefined) chosen.push(done);
    else missing.push(mine.length === 0 ? `${i} (no pod)` : `${i} (pod ${mine[0]!.name}: ${mine[0]!.phase})`);
  }
  if (missing.length > 0)
    throw new UsageError(
      `${what}: ${missing.length} of ${count} parts have no succeeded pod: ${missing.join(', ')}; collect once every part has finished (${listCommand}), before deleting it`,
    );
  return chosen;
}

/** Logs (or result files) the user saved, one per part, in the order given. */
export function savedLogs(files: readonly string[]): PartLog[] {
  const names = new Set<string>();
  return files.map((file) => {
    let log: string;
    try {
      log = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--logs ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    let fileName = `${basename(file, extname(file))}.json`;
    // Two logs of the same name from different folders must not overwrite each other's part.
    for (let k = 2; names.has(fileName); k++) fileName = `${basename(file, extname(file))}-${k}.json`;
    names.add(fileName);
    return { label: file, fileName, log };
  });
}

/** Each part's result written as a file of its own (as it was printed); the paths, in order. */
export function writeParts(
  parts: readonly PartLog[],
  outDir: string,
): { paths: string[]; results: Record<string, unknown>[] } {
  // Every log is read before any file is written: a part without a result writes nothing.
  const results = parts.map((p) => resultOfLog(p.log, p.label));
  const paths = parts.map((p, i) => {
    const path = join(outDir, p.fileName);
    writeFileAtomic(path, `${JSON.stringify(results[i], null, 2)}\n`);
    return path;
  });
  return { paths, results };
}
