/**
 * `docbench k8s job`'s options, checked and turned into a JobPlan: every mistake is one line
 * naming the option and what was expected, before anything is written.
 */
import { maskUrl } from '../common/mask-url.ts';
import { UsageError } from '../common/user-error.ts';
import type { JobPlan } from './job-manifests.ts';
import { dnsLabel, image, integerIn, quantity, serviceName } from './names.ts';

/** The phase commands a part can run: each takes `--shards`, `--barrier` and `--out -` (scenario: a scenario file's run). */
export const PART_PHASES = ['load', 'run', 'scenario'] as const;

/** Set for every part by the manifests; given again by the user they would contradict them. */
const SET_BY_K8S = new Map<string, string>([
  ['--out', 'each part prints its result on stdout (--out -)'],
  ['--url', 'the URL comes from the Secret (give it to docbench k8s job --url, or --secret)'],
  ['--config', 'the pods have no config file; give the URL to docbench k8s job --url'],
  ['--docker', 'the pods reach the store by its URL (--url)'],
  ['--shard', 'each pod is one part: its index comes from the Job (JOB_COMPLETION_INDEX)'],
  ['--shards', 'the number of parts is --pods'],
  ['--barrier', "the barrier is part 0's pod, set by the manifests"],
]);

export interface JobFlags {
  pods: string;
  image: string;
  name?: string;
  namespace?: string;
  url?: string;
  secret?: string;
  cpu: string;
  memory: string;
  spread: string;
  deadline?: string;
}

export function jobPlan(flags: JobFlags, phaseArgs: readonly string[]): JobPlan {
  const phase = checkPhaseArgs(phaseArgs);
  const pods = integerIn(flags.pods, '--pods', 1, 10_000);
  const store = storeOf(phaseArgs)!;
  // The pods' hostnames are `<name>-<index>`, a DNS label of at most 63 characters.
  const longestIndex = String(pods - 1).length;
  const name = dnsLabel(flags.name ?? `docbench-${store}-${phase}`, '--name', 63 - 1 - longestIndex);
  serviceName(name, '--name');
  if (flags.namespace !== undefined) dnsLabel(flags.namespace, '--namespace');
  if ((flags.url === undefined) === (flags.secret === undefined))
    throw new UsageError(
      '--url / --secret: give the store URL (--url, kept in a Secret the manifests create) or the name of a Secret you made with its key "url" (--secret), one of the two',
    );
  if (flags.url !== undefined) checkUrl(flags.url);
  if (!['preferred', 'required'].includes(flags.spread))
    throw new UsageError(`--spread: expected preferred or required; got "${flags.spread}"`);
  return {
    name,
    ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    pods,
    image: image(flags.image),
    phaseArgs: [...phaseArgs],
    secret:
      flags.url !== undefined
        ? { name: `${name}-store`, url: flags.url }
        : { name: dnsLabel(flags.secret!, '--secret', 253) },
    cpu: quantity(flags.cpu, '--cpu'),
    memory: quantity(flags.memory, '--memory'),
    spread: flags.spread as JobPlan['spread'],
    ...(flags.deadline !== undefined
      ? { deadlineSeconds: integerIn(flags.deadline, '--deadline', 1, 31 * 24 * 3600) }
      : {}),
  };
}

/** The phase's own arguments: a phase that runs as parts, a store, nothing the manifests set. */
export function checkPhaseArgs(args: readonly string[]): (typeof PART_PHASES)[number] {
  const phase = args[0];
  if (phase === undefined)
    throw new UsageError('k8s job: give the phase each pod runs after --, e.g. -- run --store redis -P workloada');
  if (!(PART_PHASES as readonly string[]).includes(phase))
    throw new UsageError(`k8s job: the phase after -- is ${PART_PHASES.join(', ')}; got "${phase}"`);
  for (const arg of args.slice(1)) {
    const flag = arg.split('=')[0]!;
    const why = SET_BY_K8S.get(flag);
    if (why !== undefined) throw new UsageError(`k8s job: ${flag} is set by the manifests: ${why}`);
  }
  const store = storeOf(args);
  const storeFlag = phase === 'scenario' ? '--stores' : '--store';
  if (store === undefined || store.startsWith('-') || store.includes(','))
    throw new UsageError(`k8s job: the ${phase} phase needs ${storeFlag} <name> (one store, after --)`);
  if (phase === 'scenario') {
    const file = args[1] ?? '';
    if (file.startsWith('-') || file === '')
      throw new UsageError(
        'k8s job: the scenario phase names its file first: -- scenario /path/in/image.yaml --stores redis --skip-seed',
      );
    if (!file.startsWith('/'))
      throw new UsageError(
        `k8s job: ${file}: the pods read the scenario file from the image; give an absolute path inside it`,
      );
    if (!args.includes('--skip-seed'))
      throw new UsageError(
        'k8s job: the scenario phase runs on a dataset seeded first (docbench seed scenario <file> --store X --shard i/N --barrier host:port): give --skip-seed',
      );
  }
  for (const [i, arg] of args.entries()) {
    if (arg !== '-P' && arg !== '--workload') continue;
    const file = args[i + 1] ?? '';
    // A relative path names a file on this machine; the pods see only the image's files.
    if (file.includes('/') && !file.startsWith('/'))
      throw new UsageError(
        `${arg} ${file}: the pods read workload files from the image; give a shipped name (workloada …) or an absolute path inside the image, or -p key=value`,
      );
  }
  return phase as (typeof PART_PHASES)[number];
}

/** The store a phase runs on: `--store` (load, run) or the one of `--stores` (scenario). */
function storeOf(args: readonly string[]): string | undefined {
  return args[0] === 'scenario' ? optionValue(args, '--stores') : optionValue(args, '--store');
}

function optionValue(args: readonly string[], flag: string): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === flag) return args[i + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}

/** `URL` or `<store>=URL`, as the phase's --url takes it; shown masked when it is wrong. */
function checkUrl(value: string): void {
  const url = value.replace(/^[a-z0-9-]+=(?=[a-z][a-z0-9+.-]*:)/i, '');
  try {
    new URL(url);
  } catch {
    throw new UsageError(
      `--url: expected a store URL such as redis://host:6379 (or <store>=URL); got "${maskUrl(value)}"`,
    );
  }
}
