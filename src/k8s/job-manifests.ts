/**
 * The Kubernetes objects of one run split over N pods (`docbench k8s job`): a Secret holding the
 * store's URL, a headless Service that gives part 0 the DNS name every part's barrier dials, and
 * an Indexed Job whose pod `i` runs part `i` of the phase and prints its result on stdout.
 *
 * Plain objects in the API's shape (no client library): they are written as YAML, and the tests
 * check each against the Kubernetes schema.
 */

/** The port part 0's start barrier listens on, in every pod. */
export const BARRIER_PORT = 7070;
/** The container's name: what `kubectl logs -c` and the pod failure policy refer to. */
export const CONTAINER = 'docbench';
/** The Secret's key holding the store URL, and the variable it becomes in each pod. */
export const URL_KEY = 'url';
export const URL_VARIABLE = 'DOCBENCH_URL';
/** The image's user (node's, in node:20-slim): numeric, so runAsNonRoot can be checked. */
export const IMAGE_UID = 1000;

export interface JobPlan {
  /** The Job's name; also the headless Service's, so part 0 is `<name>-0.<name>`. */
  name: string;
  namespace?: string;
  pods: number;
  image: string;
  /** The phase command and its arguments as the user gave them (`run --store redis -P workloada …`). */
  phaseArgs: readonly string[];
  /** The Secret with the URL: created from `url` when given, else one the user made. */
  secret: { name: string; url?: string };
  /** Requests and limits alike (Guaranteed QoS: no part squeezed by a neighbour, no CPU borrowed). */
  cpu: string;
  memory: string;
  /** Parts on distinct nodes: preferred (scheduled anyway when nodes are fewer) or required. */
  spread: 'preferred' | 'required';
  /** activeDeadlineSeconds: the Job fails (every part stopped) once it has run this long. */
  deadlineSeconds?: number;
}

export type Manifest = Record<string, unknown> & { apiVersion: string; kind: string };

export function labelsOf(plan: Pick<JobPlan, 'name'>): Record<string, string> {
  return { 'app.kubernetes.io/name': 'docbench', 'app.kubernetes.io/instance': plan.name };
}

function metadata(plan: JobPlan, name: string): Record<string, unknown> {
  return { name, ...(plan.namespace !== undefined ? { namespace: plan.namespace } : {}), labels: labelsOf(plan) };
}

/** `<job>-0.<service>:7070`: part 0's stable DNS name (pod hostname + subdomain) and port. */
export function barrierAddress(plan: Pick<JobPlan, 'name'>): string {
  return `${plan.name}-0.${plan.name}:${BARRIER_PORT}`;
}

/** The arguments of every part: the user's phase, then what makes it one part of N. */
export function partArgs(plan: JobPlan): string[] {
  return [
    ...plan.phaseArgs,
    '--shards',
    String(plan.pods),
    '--barrier',
    barrierAddress(plan),
    '--out',
    '-',
    // Kubernetes substitutes $(VAR) in args from the container's environment: the URL stays in
    // the Secret, never in the Job's spec.
    '--url',
    `$(${URL_VARIABLE})`,
  ];
}

export function secretManifest(plan: JobPlan & { secret: { url: string } }): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(plan, plan.secret.name),
    type: 'Opaque',
    stringData: { [URL_KEY]: plan.secret.url },
  };
}

export function serviceManifest(plan: JobPlan): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(plan, plan.name),
    spec: {
      clusterIP: 'None',
      // Part 0's name must resolve while it starts, before any readiness: parts dial it at once.
      publishNotReadyAddresses: true,
      selector: labelsOf(plan),
      ports: [{ name: 'barrier', port: BARRIER_PORT, targetPort: BARRIER_PORT, protocol: 'TCP' }],
    },
  };
}

export function jobManifest(plan: JobPlan): Manifest {
  const labels = labelsOf(plan);
  const antiAffinityTerm = { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(plan, plan.name),
    spec: {
      completionMode: 'Indexed',
      completions: plan.pods,
      parallelism: plan.pods,
      // A part that fails is not run again: a re-run would start after the barrier, on its own, and
      // its result would not cover the same window as the others'. The Job fails instead.
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [
          { action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          { action: 'FailJob', onExitCodes: { containerName: CONTAINER, operator: 'NotIn', values: [0] } },
        ],
      },
      ...(plan.deadlineSeconds !== undefined ? { activeDeadlineSeconds: plan.deadlineSeconds } : {}),
      template: {
        metadata: { labels },
        spec: {
          subdomain: plan.name,
          restartPolicy: 'Never',
          enableServiceLinks: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: IMAGE_UID,
            runAsGroup: IMAGE_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          affinity: {
            podAntiAffinity:
              plan.spread === 'required'
                ? { requiredDuringSchedulingIgnoredDuringExecution: [antiAffinityTerm] }
                : {
                    preferredDuringSchedulingIgnoredDuringExecution: [
                      { weight: 100, podAffinityTerm: antiAffinityTerm },
                    ],
                  },
          },
          containers: [
            {
              name: CONTAINER,
              image: plan.image,
              args: partArgs(plan),
              env: [{ name: URL_VARIABLE, valueFrom: { secretKeyRef: { name: plan.secret.name, key: URL_KEY } } }],
              ports: [{ name: 'barrier', containerPort: BARRIER_PORT, protocol: 'TCP' }],
              resources: {
                requests: { cpu: plan.cpu, memory: plan.memory },
                limits: { cpu: plan.cpu, memory: plan.memory },
              },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            },
          ],
        },
      },
    },
  };
}

/** Every object the run needs, in the order to apply them (the Secret only when docbench makes it). */
export function jobManifests(plan: JobPlan): Manifest[] {
  const { url } = plan.secret;
  return [
    ...(url !== undefined ? [secretManifest({ ...plan, secret: { ...plan.secret, url } })] : []),
    serviceManifest(plan),
    jobManifest(plan),
  ];
}
