/**
 * `docbench k8s`: the manifests for a run over 8 pods, each object checked against the Kubernetes
 * API schema (kubernetes-models) and the fields the run depends on checked one by one (the schema
 * accepts what it does not know); the k6-operator TestRun checked against the fields of
 * k6-operator's TestRunSpec; finding results in pod logs; the k6 runners' merge; one-line errors.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/common/user-error.ts';
import { barrierAddress, jobManifests, partArgs, type Manifest } from '../../src/k8s/job-manifests.ts';
import { jobPlan, type JobFlags } from '../../src/k8s/job-plan.ts';
import { mergeK6Runners, PERCENTILES_NOT_MERGEABLE, renderK6Merge } from '../../src/k8s/k6-merge.ts';
import { resultOfLog } from '../../src/k8s/log-results.ts';
import { checkK6Env, testRunManifest, type TestRunPlan } from '../../src/k8s/testrun-manifest.ts';
import { toYaml, writeManifests } from '../../src/k8s/write-manifests.ts';
import { describeMachine } from '../../src/results/machine.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import type { ServiceInfo } from '../../src/service/app.ts';
import { okLatencyMetric, SERVICE_CPU_METRIC, SERVICE_REQUESTS_METRIC } from '../../k6/lib/metric-names.ts';
import { loadSettings } from '../../k6/lib/settings.ts';
import { summarize, type SummaryData, type SummarySetup } from '../../k6/lib/summary.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'docbench-k8s-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const URL_WITH_PASSWORD = 'redis://:s3cret-pw@redis.bench.svc:6379';
const flags = (over: Partial<JobFlags> = {}): JobFlags => ({
  pods: '8',
  image: 'registry.example.com/docbench:0.1.0',
  url: URL_WITH_PASSWORD,
  cpu: '2',
  memory: '2Gi',
  spread: 'preferred',
  ...over,
});
const PHASE = ['run', '--store', 'redis', '-P', 'workloada', '--threads', '16'];

/**
 * The CLI in-process, stderr captured (stdout is the test runner's: what a command prints there
 * is checked in the files it writes instead).
 */
async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const err = process.stderr.write;
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await main(args), stderr };
  } finally {
    process.stderr.write = err;
  }
}

/** A phase with `--out -` in a process of its own: stdout becomes the result's for good. */
function partProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
      cwd: ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function oneLineError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.doesNotMatch(e.message, /\n/);
    assert.match(e.message, pattern);
    assert.doesNotMatch(e.message, /s3cret-pw/);
    return true;
  });
}

describe('docbench k8s job: the manifests for 8 pods', () => {
  const plan = jobPlan(flags(), PHASE);
  const manifests = jobManifests(plan);
  const byKind = (kind: string) => manifests.find((m) => m.kind === kind) as Manifest & Record<string, any>;
  const secret = byKind('Secret');
  const service = byKind('Service');
  const job = byKind('Job');

  it('each object is valid by the Kubernetes API schema', () => {
    assert.deepEqual(
      manifests.map((m) => m.kind),
      ['Secret', 'Service', 'Job'],
    );
    new Secret(secret as never).validate();
    new Service(service as never).validate();
    new Job(job as never).validate();
    // The validator is live: a wrong type fails it.
    assert.throws(() => new Job({ ...job, spec: { ...job.spec, backoffLimit: 'none' } } as never).validate());
  });

  it('is an Indexed Job of 8 parts, none re-run, spread over nodes, with its URL from the Secret', () => {
    const spec = job.spec;
    assert.equal(spec.completionMode, 'Indexed');
    assert.equal(spec.completions, 8);
    assert.equal(spec.parallelism, 8);
    assert.equal(spec.backoffLimit, 0);
    assert.deepEqual(
      spec.podFailurePolicy.rules.map((r: { action: string }) => r.action),
      ['FailJob', 'FailJob'],
    );
    const pod = spec.template.spec;
    assert.equal(pod.restartPolicy, 'Never');
    // Part 0 is <job>-0.<service>: the subdomain names the headless Service.
    assert.equal(pod.subdomain, service.metadata.name);
    assert.equal(service.spec.clusterIP, 'None');
    assert.equal(service.spec.publishNotReadyAddresses, true);
    assert.deepEqual(service.spec.selector, spec.template.metadata.labels);
    assert.equal(service.spec.ports[0].port, 7070);
    assert.equal(barrierAddress(plan), `${job.metadata.name}-0.${service.metadata.name}:7070`);
    // Every pod's hostname (<job>-<index>) is a DNS label.
    assert.ok(`${job.metadata.name}-7`.length <= 63);
    const anti = pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm;
    assert.equal(anti.topologyKey, 'kubernetes.io/hostname');
    assert.deepEqual(anti.labelSelector.matchLabels, spec.template.metadata.labels);
    const [container] = pod.containers;
    assert.equal(container.image, 'registry.example.com/docbench:0.1.0');
    assert.deepEqual(container.args, [
      ...PHASE,
      '--shards',
      '8',
      '--barrier',
      `${job.metadata.name}-0.${service.metadata.name}:7070`,
      '--out',
      '-',
      '--url',
      '$(DOCBENCH_URL)',
    ]);
    assert.deepEqual(container.args, partArgs(plan));
    assert.deepEqual(container.env, [
      { name: 'DOCBENCH_URL', valueFrom: { secretKeyRef: { name: secret.metadata.name, key: 'url' } } },
    ]);
    assert.deepEqual(container.resources, {
      requests: { cpu: '2', memory: '2Gi' },
      limits: { cpu: '2', memory: '2Gi' },
    });
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(secret.stringData.url, URL_WITH_PASSWORD);
    // The URL is nowhere but in the Secret.
    assert.doesNotMatch(JSON.stringify([service, job]), /s3cret-pw/);
  });

  it('required spread, a deadline, a namespace and a Secret of the user’s own are kept', () => {
    const own = jobManifests(
      jobPlan(
        flags({ url: undefined, secret: 'my-store', spread: 'required', deadline: '3600', namespace: 'bench' }),
        PHASE,
      ),
    );
    assert.deepEqual(
      own.map((m) => m.kind),
      ['Service', 'Job'],
    );
    const j = own[1] as Record<string, any>;
    new Job(j as never).validate();
    assert.equal(j.metadata.namespace, 'bench');
    assert.equal(j.spec.activeDeadlineSeconds, 3600);
    assert.ok(j.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution);
    assert.equal(j.spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.name, 'my-store');
  });

  it('YAML: a folder of files (the Secret readable by its owner alone), or stdout without a Secret holding a password', () => {
    const out = join(dir, 'manifests');
    const written = writeManifests(manifests, out);
    assert.deepEqual(readdirSync(out).sort(), ['1-secret.yaml', '2-service.yaml', '3-job.yaml']);
    assert.equal(statSync(join(out, '1-secret.yaml')).mode & 0o777, 0o600);
    const back = written.files.map((f) => parseAllDocuments(readFileSync(f, 'utf8'))[0]!.toJS());
    assert.deepEqual(back, JSON.parse(JSON.stringify(manifests)));
    const printed = writeManifests(manifests, undefined);
    assert.deepEqual(
      parseAllDocuments(printed.stdout).map((d) => d.toJS().kind),
      ['Service', 'Job'],
    );
    assert.doesNotMatch(printed.stdout + printed.notes.join('\n'), /s3cret-pw/);
    assert.match(printed.notes[0]!, /redis:\/\/:\*\*\*@redis\.bench\.svc:6379/);
    // Without a password, the Secret is printed like the rest.
    const open = writeManifests(jobManifests(jobPlan(flags({ url: 'redis://redis:6379' }), PHASE)), undefined);
    assert.equal(parseAllDocuments(open.stdout).length, 3);
    assert.equal(toYaml(manifests).includes('*a'), false, 'no YAML aliases');
  });

  it('bad input is one line naming the option', () => {
    const cases: [Partial<JobFlags>, string[], RegExp][] = [
      [{ pods: '0' }, PHASE, /^--pods: expected a whole number from 1/],
      [{ pods: 'eight' }, PHASE, /^--pods/],
      [{ image: 'Not An Image' }, PHASE, /^--image: expected an image reference/],
      [{ name: 'Bench_1' }, PHASE, /^--name: expected a lower-case DNS label/],
      [{ name: '1bench' }, PHASE, /^--name: a Service name starts with a letter/],
      [{ name: 'x'.repeat(62) }, PHASE, /^--name: .*at most 61 characters/],
      [{ cpu: 'lots' }, PHASE, /^--cpu: expected a Kubernetes quantity/],
      [{ memory: '0' }, PHASE, /^--memory/],
      [{ spread: 'everywhere' }, PHASE, /^--spread: expected preferred or required/],
      [{ url: undefined }, PHASE, /^--url \/ --secret/],
      [{ secret: 'mine' }, PHASE, /^--url \/ --secret/],
      [{ url: 'not a url:s3cret-pw@' }, PHASE, /^--url: expected a store URL/],
      [{ deadline: '-5' }, PHASE, /^--deadline/],
      [{}, [], /^k8s job: give the phase/],
      [{}, ['compare', '--stores', 'redis'], /^k8s job: the phase after -- is load, run, scenario; got "compare"/],
      [{}, ['run', '-P', 'workloada'], /needs --store/],
      [{}, [...PHASE, '--out', 'a.json'], /^k8s job: --out is set by the manifests/],
      [{}, [...PHASE, '--url=redis://x'], /^k8s job: --url is set by the manifests/],
      [{}, [...PHASE, '--shards', '3'], /^k8s job: --shards is set by the manifests/],
      [
        {},
        ['run', '--store', 'redis', '-P', 'my/workload'],
        /^-P my\/workload: the pods read workload files from the image/,
      ],
      [
        {},
        ['scenario', '/app/blog.yaml', '--stores', 'redis,mongodb', '--skip-seed'],
        /needs --stores <name> \(one store/,
      ],
      [{}, ['scenario', 'fixtures/blog.yaml', '--stores', 'redis', '--skip-seed'], /an absolute path inside it/],
      [{}, ['scenario', '/app/blog.yaml', '--stores', 'redis'], /give --skip-seed$/],
    ];
    for (const [over, phase, pattern] of cases) oneLineError(() => jobPlan(flags(over), phase), pattern);
  });

  it('the CLI: one line for an option the phase does not have, exit 2; manifests on stdout otherwise', async () => {
    const bad = await cli([
      'k8s',
      'job',
      '--pods',
      '2',
      '--image',
      'docbench:1',
      '--url',
      'redis://r:6379',
      '--',
      'run',
      '--store',
      'redis',
      '--thread',
      '4',
    ]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'docbench: k8s job: --thread is not an option of docbench run\n');
    const stray = await cli([
      'k8s',
      'job',
      '--pods',
      '2',
      '--image',
      'docbench:1',
      '--url',
      'redis://r:6379',
      '--',
      'run',
      '--store',
      'redis',
      'workloada',
    ]);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /^docbench: k8s job: docbench run takes no argument "workloada"/);
    const folder = join(dir, 'cli-manifests');
    const good = await cli([
      'k8s',
      'job',
      '--pods',
      '2',
      '--image',
      'docbench:1',
      '--url',
      URL_WITH_PASSWORD,
      '--out-dir',
      folder,
      '--',
      ...PHASE,
    ]);
    assert.equal(good.code, 0, good.stderr);
    assert.deepEqual(readdirSync(folder).sort(), ['1-secret.yaml', '2-service.yaml', '3-job.yaml']);
    assert.match(
      good.stderr,
      /2 parts of `docbench run --store redis -P workloada --threads 16` against redis:\/\/:\*\*\*@redis\.bench\.svc:6379/,
    );
    assert.doesNotMatch(good.stderr, /s3cret-pw/);
  });

  it('a scenario file’s run as the phase: its file, one store, the parts’ flags after it', async () => {
    const phase = [
      'scenario',
      '/app/fixtures/scenarios/blog.yaml',
      '--stores',
      'redis',
      '--skip-seed',
      '--threads',
      '8',
    ];
    const plan = jobPlan(flags({}), phase);
    assert.equal(plan.name, 'docbench-redis-scenario');
    assert.deepEqual(partArgs(plan).slice(0, phase.length + 4), [
      ...phase,
      '--shards',
      '8',
      '--barrier',
      barrierAddress(plan),
    ]);
    const folder = join(dir, 'cli-scenario');
    const good = await cli([
      'k8s',
      'job',
      '--pods',
      '2',
      '--image',
      'docbench:1',
      '--url',
      'redis://r:6379',
      '--out-dir',
      folder,
      '--',
      ...phase,
    ]);
    assert.equal(good.code, 0, good.stderr);
    const stray = await cli([
      'k8s',
      'job',
      '--pods',
      '2',
      '--image',
      'docbench:1',
      '--url',
      'redis://r:6379',
      '--',
      ...phase,
      'extra',
    ]);
    assert.match(stray.stderr, /^docbench: k8s job: docbench scenario takes no argument "extra"/);
  });
});

describe('results in pod logs, and docbench k8s collect', () => {
  it('`run --out -` prints one result line on stdout, the YCSB text on stderr; collect finds it among status lines', async () => {
    // Two parts at once (a barrier's job in a cluster): their measured windows overlap, as a merge requires.
    const part = [
      'run',
      '--store',
      'basic',
      '-P',
      'workloadc',
      '-p',
      'recordcount=50',
      '-p',
      'maxexecutiontime=3',
      '-p',
      'operationcount=0',
      '--target',
      '50',
      '-q',
      '--out',
      '-',
    ];
    const runs = await Promise.all([partProcess(part), partProcess(part)]);
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim().split('\n').length, 1, 'one line on stdout');
      assert.match(r.stderr, /\[OVERALL\], RunTime\(ms\)/);
    }
    // A container log: stderr's lines and stdout's result line, as the runtime interleaves them.
    const logs = runs.map((r, i) => {
      const path = join(dir, `part-${i}.log`);
      writeFileSync(path, `docbench: waiting at the barrier\n[status] 1 sec: 50 operations\n${r.stdout}${r.stderr}`);
      return path;
    });
    const out = join(dir, 'collected');
    const collected = await cli(['k8s', 'collect', '--logs', logs[0]!, '--logs', logs[1]!, '--out-dir', out]);
    assert.equal(collected.code, 0, collected.stderr);
    const parts = [0, 1].map((i) => JSON.parse(readFileSync(join(out, `part-${i}.json`), 'utf8')));
    assert.deepEqual(parts[0], JSON.parse(runs[0]!.stdout));
    const merged = resultSchema.parse(JSON.parse(readFileSync(join(out, 'merged.json'), 'utf8')));
    assert.equal(merged.overall.operations, parts[0].overall.operations + parts[1].overall.operations);

    // The same through kubectl: no cluster here, so a stand-in kubectl answers the three
    // commands collect sends (their flags are kubectl's own) from these logs.
    const kubectlLog = join(dir, 'kubectl-calls.txt');
    const fake = join(dir, 'kubectl');
    writeFileSync(
      fake,
      `#!${process.execPath}
const { appendFileSync, readFileSync } = require('node:fs');
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(kubectlLog)}, args.join(' ') + '\\n');
const [, ns, verb, what, name] = args;
const phases = (process.env.PHASES ?? 'Succeeded,Succeeded').split(',');
if (verb === 'get' && what === 'job') process.stdout.write(JSON.stringify({ spec: { completions: 2 } }));
else if (verb === 'get' && what === 'pods')
  process.stdout.write(JSON.stringify({ items: phases.map((phase, i) => ({ metadata: { name: 'bench-' + i + '-x', annotations: { 'batch.kubernetes.io/job-completion-index': String(i) } }, status: { phase } })) }));
else if (verb === 'logs') process.stdout.write(readFileSync(${JSON.stringify(dir)} + '/part-' + what.split('-')[1] + '.log', 'utf8'));
else { process.stderr.write('error: unexpected ' + args.join(' ') + '\\n'); process.exit(1); }
`,
      { mode: 0o755 },
    );
    process.env.DOCBENCH_KUBECTL = fake;
    try {
      const viaKubectl = join(dir, 'via-kubectl');
      const r = await cli(['k8s', 'collect', 'bench', '--namespace', 'ns1', '--out-dir', viaKubectl]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(readFileSync(join(viaKubectl, 'part-1.json'), 'utf8')), parts[1]);
      assert.deepEqual(readFileSync(kubectlLog, 'utf8').trim().split('\n'), [
        '--namespace ns1 get job bench --output json',
        '--namespace ns1 get pods --selector job-name=bench --output json',
        '--namespace ns1 logs bench-0-x --container docbench',
        '--namespace ns1 logs bench-1-x --container docbench',
      ]);
      // A part whose pod failed: one line naming it, nothing written.
      process.env.PHASES = 'Succeeded,Failed';
      const failed = await cli(['k8s', 'collect', 'bench', '--namespace', 'ns1', '--out-dir', join(dir, 'never')]);
      assert.equal(failed.code, 2);
      assert.match(
        failed.stderr,
        /^docbench: job bench: 1 of 2 parts have no succeeded pod: 1 \(pod bench-1-x: Failed\); collect once/,
      );
      assert.equal(failed.stderr.split('\n').length, 2);
      assert.throws(() => statSync(join(dir, 'never')));
    } finally {
      delete process.env.DOCBENCH_KUBECTL;
      delete process.env.PHASES;
    }
  });

  it('a log without a result is one line naming it and its last line; collect needs a Job or --logs', async () => {
    const path = join(dir, 'failed.log');
    writeFileSync(path, '[status] 1 sec\ndocbench: redis://:***@x:6379: connection refused\n');
    const r = await cli(['k8s', 'collect', '--logs', path, '--out-dir', join(dir, 'none')]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `docbench: ${path}: no docbench result in its log; its last line: docbench: redis://:***@x:6379: connection refused\n`,
    );
    assert.throws(() => statSync(join(dir, 'none')), 'nothing written');
    const neither = await cli(['k8s', 'collect']);
    assert.equal(neither.code, 2);
    assert.match(
      neither.stderr,
      /^docbench: name the Job \(or TestRun\) to ask the cluster, or give .* --logs; one of the two\n$/,
    );
  });
});

describe('docbench k8s k6: the k6-operator TestRun and its runners’ merge', () => {
  const plan: TestRunPlan = {
    name: 'docbench-ycsb-a',
    parallelism: 8,
    archive: 'ycsb-a.tar',
    configMap: 'docbench-ycsb-a-script',
    baseUrl: 'http://docbench-serve:18080',
    tokenSecret: 'docbench-token',
    image: 'grafana/k6:1.8.1',
    separate: true,
    cleanup: false,
    cpu: '1',
    memory: '1Gi',
  };

  it("has only fields of k6-operator's TestRunSpec, of their types; the runner's env and resources are valid by the Kubernetes schema", () => {
    const t = testRunManifest(plan) as Record<string, any>;
    assert.equal(t.apiVersion, 'k6.io/v1alpha1');
    assert.equal(t.kind, 'TestRun');
    // The fields of TestRunSpec, Pod and K6Script in grafana/k6-operator api/v1alpha1/testrun_types.go (2026).
    const SPEC = [
      'script',
      'parallelism',
      'separate',
      'arguments',
      'args',
      'ports',
      'initializer',
      'starter',
      'runner',
      'quiet',
      'paused',
      'scuttle',
      'cleanup',
      'testRunId',
      'token',
    ];
    const POD = [
      'disabled',
      'affinity',
      'automountServiceAccountToken',
      'env',
      'image',
      'imagePullSecrets',
      'imagePullPolicy',
      'metadata',
      'nodeSelector',
      'tolerations',
      'topologySpreadConstraints',
      'resources',
      'serviceAccountName',
      'securityContext',
      'containerSecurityContext',
      'envFrom',
      'readinessProbe',
      'livenessProbe',
      'initContainers',
      'volumes',
      'volumeMounts',
      'priorityClassName',
      'schedulerName',
    ];
    for (const key of Object.keys(t.spec)) assert.ok(SPEC.includes(key), `spec.${key}`);
    for (const key of Object.keys(t.spec.runner)) assert.ok(POD.includes(key), `spec.runner.${key}`);
    assert.deepEqual(Object.keys(t.spec.script), ['configMap']);
    assert.deepEqual(t.spec.script.configMap, { name: 'docbench-ycsb-a-script', file: 'ycsb-a.tar' });
    assert.ok(Number.isInteger(t.spec.parallelism) && t.spec.parallelism === 8);
    assert.equal(typeof t.spec.separate, 'boolean');
    assert.equal(typeof t.spec.arguments, 'string');
    assert.equal(t.spec.cleanup, undefined, 'no cleanup: the logs stay for k6-collect');
    assert.equal(
      testRunManifest({ ...plan, cleanup: true }).spec &&
        (testRunManifest({ ...plan, cleanup: true }) as any).spec.cleanup,
      'post',
    );
    assert.deepEqual(t.spec.arguments.split(' '), [
      '-e',
      'BASE_URL=http://docbench-serve:18080',
      '-e',
      'RESULT_FILE=/dev/stdout',
    ]);
    // The runner's env and resources, as a container of a Pod.
    new Pod({
      metadata: { name: 'runner' },
      spec: {
        containers: [
          { name: 'k6', image: t.spec.runner.image, env: t.spec.runner.env, resources: t.spec.runner.resources },
        ],
      },
    }).validate();
    assert.doesNotMatch(JSON.stringify(t), /DOCBENCH_TOKEN=/);
  });

  it('-e is checked: NAME=value, no reserved names, nothing a shell or a space would split', () => {
    assert.deepEqual(checkK6Env(['VUS=50', 'DURATION=2m']), ['VUS=50', 'DURATION=2m']);
    oneLineError(() => checkK6Env(['VUS']), /^-e VUS: expected NAME=value/);
    oneLineError(
      () => checkK6Env(['DOCBENCH_TOKEN=abc']),
      /^-e DOCBENCH_TOKEN: set by docbench k8s k6: .*--token-secret/,
    );
    oneLineError(() => checkK6Env(['STAGES=10s:5, 20s:5']), /^-e STAGES: the value may hold no spaces/);
  });

  /** A runner's log as k6 prints it with RESULT_FILE=/dev/stdout: the result block, thresholds, YCSB text, k6's messages. */
  function runnerLog(reads: number, p99: number): string {
    const settings = loadSettings({ VUS: '2', DURATION: '10s', PERCENTILES: '50,99', RESULT_FILE: '/dev/stdout' });
    const data: SummaryData = {
      state: { testRunDurationMs: 10_000 },
      metrics: {
        iterations: { values: { count: reads, rate: reads / 10 } },
        [okLatencyMetric('READ')]: {
          values: { count: reads, avg: 2, min: 0.5, max: p99 + 1, 'p(50)': 2, 'p(99)': p99 },
        },
        [SERVICE_CPU_METRIC]: { values: { count: reads === 100 ? 5000 : 0 } },
        [SERVICE_REQUESTS_METRIC]: { values: { count: reads === 100 ? 300 : 0 } },
      },
      setup_data: setupData,
    };
    const out = summarize(data, settings)!;
    return `time="…" level=info msg="k6 runner started"\n${out['/dev/stdout']}${out.stdout}`;
  }
  const setupData: SummarySetup = {
    info: {
      store: {
        name: 'redis',
        url: 'redis://r:6379',
        server: 'Redis',
        serverVersion: '7',
        driver: 'ioredis 5',
        localTarget: false,
      },
      scenarios: ['ycsb'],
      service: { framework: 'fastify 5', node: 'v20', workers: 1, pool: 8, pid: 1 },
      machine: describeMachine(),
    } as unknown as ServiceInfo,
    startedAt: new Date().toISOString(),
    run: { kind: 'ycsb', workloadName: 'workloadc', properties: {}, rows: ['READ'], notes: [] },
    scenario: { executor: 'constant-vus', vus: 2, duration: '10s' },
  };

  it('merges the runners: counts and means exact, each percentile only as the interval of the runners’ values, said so', async () => {
    const logs = [runnerLog(100, 8), runnerLog(300, 20)].map((text, i) => {
      const path = join(dir, `runner-${i + 1}.log`);
      writeFileSync(path, text);
      return path;
    });
    const runners = logs.map((p) => resultSchema.parse(resultOfLog(readFileSync(p, 'utf8'), p)) as Result);
    const m = mergeK6Runners(runners);
    assert.equal(m.runners, 2);
    assert.equal(m.operations, 400);
    assert.equal(m.returns.OK, 400);
    assert.equal(m.service.requests, 300);
    const read = m.rows.find((r) => r.name === 'READ')!;
    assert.equal(read.operations, 400);
    assert.equal(read.averageUs, 2000);
    assert.equal(read.maxUs, 21_000);
    assert.deepEqual(read.percentileBoundsUs['99'], { atLeast: 8000, atMost: 20_000 });
    assert.ok(m.notes.includes(PERCENTILES_NOT_MERGEABLE));
    const text = renderK6Merge(m);
    assert.match(text, /p99 in \[8\.00, 20\.00\] ms \(bounds, not mergeable\)/);
    assert.match(text, /percentiles are not mergeable/);
    // And through the CLI, from the saved logs.
    const out = join(dir, 'k6-collected');
    const r = await cli(['k8s', 'k6-collect', '--logs', logs[0]!, '--logs', logs[1]!, '--out-dir', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'merged-k6.json'), 'utf8')), JSON.parse(JSON.stringify(m)));
  });

  it('the CLI checks the TestRun’s options in one line', async () => {
    for (const [args, pattern] of [
      [
        ['--parallelism', '0', '--base-url', 'http://s:18080'],
        /^docbench: --parallelism: expected a whole number from 1/,
      ],
      [['--parallelism', '2', '--base-url', 'ftp://s'], /^docbench: --base-url: expected an http/],
      [['--parallelism', '2', '--base-url', 'http://u:p@s:1'], /^docbench: --base-url: no credentials/],
      [
        ['--parallelism', '2', '--base-url', 'http://s:1', '--name', 'X'],
        /^docbench: --name: expected a lower-case DNS label/,
      ],
    ] as [string[], RegExp][]) {
      const r = await cli(['k8s', 'k6', 'ycsb-a', ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
    }
    const folder = join(dir, 'testrun');
    const good = await cli([
      'k8s',
      'k6',
      'ycsb-a',
      '--parallelism',
      '4',
      '--base-url',
      'http://s:18080',
      '-e',
      'VUS=64',
      '--out-dir',
      folder,
    ]);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(parseAllDocuments(readFileSync(join(folder, 'testrun.yaml'), 'utf8'))[0]!.toJS().spec.parallelism, 4);
    assert.match(good.stderr, /k6 archive -e VUS=64 -O ycsb-a\.tar k6\/ycsb-a\.ts/);
  });
});
