/**
 * `docbench k8s`: a run split over many pods. `job` writes the manifests (Secret, headless
 * Service, Indexed Job) for N parts of a load or run phase; `collect` takes each part's result out
 * of its pod's log and merges them exactly (`docbench report --merge`). `k6` and `k6-collect` do
 * the same for end-to-end runs under k6-operator, whose runners' percentiles cannot be merged.
 * Registration only; the work is src/k8s/, imported when a subcommand runs.
 */
import { Option, type Command } from 'commander';
import { collect } from '../common/option-parsers.ts';
import { UsageError } from '../common/user-error.ts';

const say = (line: string) => process.stderr.write(`k8s: ${line}\n`);

export function registerK8sCommand(program: Command): void {
  const k8s = program
    .command('k8s')
    .description(
      'runs split over many pods on Kubernetes: the manifests (job, k6), and the results out of the pods\u2019 logs (collect, k6-collect)',
    );

  k8s
    .command('job')
    .description(
      'manifests for one load, run or scenario (a scenario file run) phase split over N pods (an Indexed Job, one part per pod, all starting together at a barrier): docbench k8s job --pods 8 --image IMG --url URL -- run --store redis -P workloada',
    )
    .argument('<phase...>', 'after --: the phase every pod runs, e.g. -- run --store redis -P workloada --threads 16')
    .addOption(new Option('--pods <n>', 'parts, one pod each').makeOptionMandatory())
    .addOption(
      new Option(
        '--image <image>',
        "docbench's image, pushed where the cluster pulls it (docker/Dockerfile)",
      ).makeOptionMandatory(),
    )
    .option(
      '--url <url>',
      "the store's URL (or <store>=URL); kept in a Secret the manifests create, never printed in clear",
    )
    .option('--secret <name>', 'a Secret you made, holding the store URL under the key "url" (instead of --url)')
    .option('--name <name>', 'the Job and headless Service name (default docbench-<store>-<phase>)')
    .option('--namespace <ns>', 'the namespace (default: kubectl\u2019s current one)')
    .option('--cpu <quantity>', "each pod's CPU, requested and limit alike", '1')
    .option('--memory <quantity>', "each pod's memory, requested and limit alike", '1Gi')
    .option(
      '--spread <how>',
      'one part per node: preferred (the default) or required (parts wait for free nodes)',
      'preferred',
    )
    .option('--deadline <seconds>', 'fail the Job (stopping every part) after this long')
    .option(
      '--out-dir <dir>',
      'write one YAML file per object here (default: every object on stdout, a Secret with a password left out)',
    )
    .action(async (phaseArgs: string[], opts: Record<string, string | undefined>) => {
      const { jobPlan } = await import('../k8s/job-plan.ts');
      const { jobManifests } = await import('../k8s/job-manifests.ts');
      const { writeManifests } = await import('../k8s/write-manifests.ts');
      const { maskUrl } = await import('../common/mask-url.ts');
      const plan = jobPlan(
        {
          pods: opts.pods!,
          image: opts.image!,
          cpu: opts.cpu!,
          memory: opts.memory!,
          spread: opts.spread!,
          ...pick(opts, ['name', 'namespace', 'url', 'secret', 'deadline']),
        },
        phaseArgs,
      );
      await checkAgainstPhaseCommand(phaseArgs);
      const written = writeManifests(jobManifests(plan), opts.outDir);
      process.stdout.write(written.stdout);
      for (const note of written.notes) say(note);
      const ns = plan.namespace !== undefined ? ` -n ${plan.namespace}` : '';
      if (written.files.length > 0) say(`wrote ${written.files.join(', ')}`);
      say(
        `${plan.pods} parts of \`docbench ${plan.phaseArgs.join(' ')}\` against ${plan.secret.url !== undefined ? maskUrl(plan.secret.url) : `the URL in Secret ${plan.secret.name}`}`,
      );
      say(
        `next: kubectl apply${ns} -f ${opts.outDir ?? '<the manifests>'}; kubectl wait${ns} --for=condition=complete --timeout=24h job/${plan.name}; docbench k8s collect ${plan.name}${ns.replace('-n', '--namespace')}`,
      );
    });

  k8s
    .command('collect')
    .description(
      "each part's result out of its pod's log (kubectl logs, or logs you saved), one file per part, and the parts merged exactly (docbench report --merge)",
    )
    .argument('[job]', 'the Job (docbench k8s job --name); its pods are asked through kubectl')
    .option('--namespace <ns>', 'the namespace (default: kubectl\u2019s current one)')
    .option(
      '--logs <file>',
      "a part's saved log (or result file), instead of asking the cluster; repeatable, one per part",
      collect,
      [],
    )
    .option('--out-dir <dir>', 'where the part files and merged.json go (default: results/<job>-<timestamp>)')
    .action(async (job: string | undefined, opts: { namespace?: string; logs: string[]; outDir?: string }) => {
      const { jobPartLogs, savedLogs, writeParts } = await import('../k8s/collect.ts');
      const parts = partLogs(job, opts, jobPartLogs, savedLogs);
      const outDir = opts.outDir ?? defaultOutDir(job ?? 'k8s-parts');
      const { paths } = writeParts(parts, outDir);
      say(`${paths.length} part results in ${outDir}`);
      await mergeThroughReport(`${outDir}/merged.json`, paths);
    });

  k8s
    .command('k6')
    .description(
      'the k6-operator TestRun driving docbench serve with one of docbench\u2019s k6 scripts from N runner pods, and the commands that make its script archive',
    )
    .argument(
      '<script>',
      'k6 script: a shipped one by name (ycsb-a \u2026 ycsb-h, ycsb, pagination, join, persons, scenario) or a path',
    )
    .addOption(
      new Option(
        '--parallelism <n>',
        'k6 runner pods; k6 splits the VUs, iterations or rate between them',
      ).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--base-url <url>',
        'the service as the runners reach it, e.g. http://docbench-serve:18080',
      ).makeOptionMandatory(),
    )
    .option('--token-secret <name>', 'a Secret holding the service\u2019s bearer token under the key "token"')
    .option('--name <name>', 'the TestRun name (default docbench-<script>)')
    .option('--namespace <ns>', 'the namespace (default: kubectl\u2019s current one)')
    .option('--image <image>', 'the runners\u2019 k6 image (default: grafana/k6 at the version docbench k6 builds)')
    .option('--no-separate', 'allow several runners on one node (default: one per node)')
    .option('--cleanup', 'delete the runners when the test ends (their logs, and so the results, go with them)', false)
    .option('--cpu <quantity>', "each runner's CPU, requested and limit alike", '1')
    .option('--memory <quantity>', "each runner's memory, requested and limit alike", '1Gi')
    .option(
      '-e, --k6-env <NAME=value>',
      'the load shape, fixed in the archive (MODEL, VUS, RATE, DURATION, \u2026; k6/README.md); repeatable',
      collect,
      [],
    )
    .option('--out-dir <dir>', 'write testrun.yaml here (default: on stdout)')
    .action(async (script: string, opts: Record<string, unknown>) => {
      await k6Manifest(script, opts);
    });

  k8s
    .command('k6-collect')
    .description(
      "each k6 runner's result out of its pod's log, one file per runner, and their merge: counts exact, percentiles only as bounds (k6's summaries hold no histogram)",
    )
    .argument('[testrun]', 'the TestRun (docbench k8s k6 --name); its runner pods are asked through kubectl')
    .option('--namespace <ns>', 'the namespace (default: kubectl\u2019s current one)')
    .option('--logs <file>', "a runner's saved log (or result file); repeatable, one per runner", collect, [])
    .option('--out-dir <dir>', 'where the runner files and merged-k6.json go (default: results/<testrun>-<timestamp>)')
    .action(async (testRun: string | undefined, opts: { namespace?: string; logs: string[]; outDir?: string }) => {
      const { testRunLogs, savedLogs, writeParts } = await import('../k8s/collect.ts');
      const { mergeK6Runners, renderK6Merge } = await import('../k8s/k6-merge.ts');
      const { resultSchema } = await import('../results/schema.ts');
      const { writeFileAtomic } = await import('../results/write.ts');
      const parts = partLogs(testRun, opts, testRunLogs, savedLogs);
      const outDir = opts.outDir ?? defaultOutDir(testRun ?? 'k6-runners');
      const { results } = writeParts(parts, outDir);
      const runners = results.map((r) => resultSchema.parse(r));
      const odd = runners.findIndex(
        (r) =>
          r.mode !== 'http' || r.workload.name !== runners[0]!.workload.name || r.store.name !== runners[0]!.store.name,
      );
      if (odd >= 0)
        throw new UsageError(
          `${parts[odd]!.label}: not a runner of the same k6 run (mode ${runners[odd]!.mode}, ${runners[odd]!.store.name} ${runners[odd]!.workload.name}; the first is ${runners[0]!.store.name} ${runners[0]!.workload.name})`,
        );
      const merged = mergeK6Runners(runners);
      writeFileAtomic(`${outDir}/merged-k6.json`, `${JSON.stringify(merged, null, 2)}\n`);
      process.stdout.write(renderK6Merge(merged));
      say(`${runners.length} runner results and merged-k6.json in ${outDir}`);
    });
}

function pick(opts: Record<string, string | undefined>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (opts[k] !== undefined) out[k] = opts[k];
  return out;
}

function defaultOutDir(name: string): string {
  return `results/${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
}

/** The cluster's logs for a named Job or TestRun, or the files given with --logs: one of the two. */
function partLogs<T>(
  name: string | undefined,
  opts: { namespace?: string; logs: string[] },
  fromCluster: (name: string, namespace: string | undefined) => T[],
  fromFiles: (files: readonly string[]) => T[],
): T[] {
  if ((name === undefined) === (opts.logs.length === 0))
    throw new UsageError(
      'name the Job (or TestRun) to ask the cluster, or give its pods\u2019 saved logs with --logs; one of the two',
    );
  return name !== undefined ? fromCluster(name, opts.namespace) : fromFiles(opts.logs);
}

/**
 * The phase's arguments as `docbench load|run` itself would read them: an unknown option or a
 * stray argument fails here, not in N pods.
 */
async function checkAgainstPhaseCommand(args: readonly string[]): Promise<void> {
  const { buildProgram } = await import('./main.ts');
  const program = await buildProgram();
  const phase = program.commands.find((c) => c.name() === args[0])!;
  const { operands, unknown } = phase.parseOptions([...args.slice(1)]);
  if (unknown.length > 0) throw new UsageError(`k8s job: ${unknown[0]} is not an option of docbench ${args[0]}`);
  // A scenario file's run names its file; load and run take no argument.
  const stray = args[0] === 'scenario' ? operands.slice(1) : operands;
  if (stray.length > 0)
    throw new UsageError(`k8s job: docbench ${args[0]} takes no argument "${stray[0]}" (an option's value?)`);
}

/** The parts merged by `docbench report --merge`, the one exact merge (histograms added). */
async function mergeThroughReport(out: string, parts: readonly string[]): Promise<void> {
  const { buildProgram } = await import('./main.ts');
  const program = await buildProgram();
  await program.parseAsync(['report', '--merge', out, ...parts], { from: 'user' });
}

async function k6Manifest(script: string, opts: Record<string, unknown>): Promise<void> {
  const { resolveScript } = await import('./k6-run.ts');
  const { scenarioCommands } = await import('./scenario-commands.ts');
  const { K6_VERSION } = await import('../local/k6.ts');
  const { relative, basename, extname } = await import('node:path');
  const { dnsLabel, image, integerIn, quantity } = await import('../k8s/names.ts');
  const { checkBaseUrl, checkK6Env, preparationCommands, testRunManifest } = await import('../k8s/testrun-manifest.ts');
  const { writeFileAtomic } = await import('../results/write.ts');
  const { toYaml } = await import('../k8s/write-manifests.ts');
  const path = resolveScript(script, await scenarioCommands());
  const base = basename(path, extname(path));
  const name = dnsLabel((opts.name as string | undefined) ?? `docbench-${base}`, '--name', 63 - '-service-'.length - 5);
  const namespace = opts.namespace as string | undefined;
  if (namespace !== undefined) dnsLabel(namespace, '--namespace');
  const tokenSecret = opts.tokenSecret as string | undefined;
  if (tokenSecret !== undefined) dnsLabel(tokenSecret, '--token-secret', 253);
  const env = checkK6Env(opts.k6Env as string[]);
  const plan = {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    parallelism: integerIn(opts.parallelism as string, '--parallelism', 1, 1000),
    archive: `${base}.tar`,
    configMap: `${name}-script`,
    baseUrl: checkBaseUrl(opts.baseUrl as string),
    ...(tokenSecret !== undefined ? { tokenSecret } : {}),
    image: image((opts.image as string | undefined) ?? `grafana/k6:${K6_VERSION.replace(/^v/, '')}`),
    separate: opts.separate as boolean,
    cleanup: opts.cleanup as boolean,
    cpu: quantity(opts.cpu as string, '--cpu'),
    memory: quantity(opts.memory as string, '--memory'),
  };
  const yaml = toYaml([testRunManifest(plan)]);
  const outDir = opts.outDir as string | undefined;
  if (outDir !== undefined) {
    writeFileAtomic(`${outDir}/testrun.yaml`, yaml);
    say(`wrote ${outDir}/testrun.yaml`);
  } else process.stdout.write(yaml);
  // The script as the user can name it from here (k6 archive runs where they are).
  const fromHere = relative(process.cwd(), path);
  const scriptPath = fromHere.startsWith('..') ? path : fromHere;
  say('first, the archive (the load shape is fixed in it) and its ConfigMap:');
  for (const line of preparationCommands(plan, scriptPath, env)) say(`  ${line}`);
  if (plan.cleanup) say('--cleanup: the runner pods and their logs are deleted when the test ends; collect needs them');
  say(
    `then: kubectl apply -f ${outDir !== undefined ? `${outDir}/testrun.yaml` : '<the TestRun>'}; when its stage is finished: docbench k8s k6-collect ${name}`,
  );
}
