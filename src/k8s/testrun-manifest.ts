/**
 * `docbench k8s k6`: the k6-operator TestRun (k6.io/v1alpha1) that drives `docbench serve` with
 * one of docbench's k6 scripts from N runner pods. Each runner's handleSummary prints docbench's
 * result for its share on stdout (RESULT_FILE=/dev/stdout), so its pod log carries it for
 * `docbench k8s k6-collect`.
 */
import { UsageError } from '../common/user-error.ts';
import type { Manifest } from './job-manifests.ts';

/** The variables the TestRun sets itself; a token given with -e would sit in the spec in clear. */
const RESERVED = new Map<string, string>([
  ['BASE_URL', 'give it with --base-url'],
  ['RESULT_FILE', 'each runner prints its result on stdout for k8s k6-collect'],
  ['DOCBENCH_TOKEN', 'a -e value sits in clear in the archive and the spec; name a Secret with --token-secret'],
]);

export interface TestRunPlan {
  name: string;
  namespace?: string;
  parallelism: number;
  /** The archive's key in the ConfigMap (`ycsb-a.tar`), and the ConfigMap's name. */
  archive: string;
  configMap: string;
  baseUrl: string;
  /** A Secret with key `token`: the service's bearer token. */
  tokenSecret?: string;
  image: string;
  separate: boolean;
  cleanup: boolean;
  cpu: string;
  memory: string;
}

/** `-e NAME=value` for k6 archive: the load shape (MODEL, VUS, RATE, DURATION, …). */
export function checkK6Env(assignments: readonly string[]): string[] {
  for (const a of assignments) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(a);
    if (m === null) throw new UsageError(`-e ${a}: expected NAME=value (e.g. -e VUS=50)`);
    const why = RESERVED.get(m[1]!);
    if (why !== undefined) throw new UsageError(`-e ${m[1]}: set by docbench k8s k6: ${why}`);
    // k6-operator splits `arguments` on whitespace, and the archive command is printed for a shell.
    if (/[\s'"\\$`]/.test(m[2]!))
      throw new UsageError(`-e ${m[1]}: the value may hold no spaces, quotes, $ or backslashes`);
  }
  return [...assignments];
}

export function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url: expected the service's URL, e.g. http://docbench-serve:18080; got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--base-url: expected an http:// or https:// URL; got "${value}"`);
  if (url.username !== '' || url.password !== '')
    throw new UsageError('--base-url: no credentials in the URL; the service takes a bearer token (--token-secret)');
  if (/\s/.test(value)) throw new UsageError('--base-url: no spaces');
  return value.replace(/\/$/, '');
}

export function testRunManifest(plan: TestRunPlan): Manifest {
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: {
      name: plan.name,
      ...(plan.namespace !== undefined ? { namespace: plan.namespace } : {}),
      labels: { 'app.kubernetes.io/name': 'docbench', 'app.kubernetes.io/instance': plan.name },
    },
    spec: {
      parallelism: plan.parallelism,
      // One runner per node: runners sharing a node would share its CPU, and the load generator
      // could become the limit.
      separate: plan.separate,
      script: { configMap: { name: plan.configMap, file: plan.archive } },
      // Kept to `arguments` (a string), which every k6-operator version takes; values hold no spaces.
      arguments: `-e BASE_URL=${plan.baseUrl} -e RESULT_FILE=/dev/stdout`,
      runner: {
        image: plan.image,
        ...(plan.tokenSecret !== undefined
          ? {
              env: [
                {
                  name: 'DOCBENCH_TOKEN',
                  valueFrom: { secretKeyRef: { name: plan.tokenSecret, key: 'token' } },
                },
              ],
            }
          : {}),
        resources: {
          requests: { cpu: plan.cpu, memory: plan.memory },
          limits: { cpu: plan.cpu, memory: plan.memory },
        },
      },
      // Without cleanup the runner pods, and with them their logs, stay until the TestRun is deleted.
      ...(plan.cleanup ? { cleanup: 'post' } : {}),
    },
  };
}

/** What to run before applying the TestRun: the archive (the load shape is fixed in it) and its ConfigMap. */
export function preparationCommands(plan: TestRunPlan, scriptPath: string, env: readonly string[]): string[] {
  const ns = plan.namespace !== undefined ? ` --namespace ${plan.namespace}` : '';
  return [
    `k6 archive ${env.map((e) => `-e ${e} `).join('')}-O ${plan.archive} ${scriptPath}`,
    `kubectl create configmap ${plan.configMap}${ns} --from-file=${plan.archive}`,
  ];
}
