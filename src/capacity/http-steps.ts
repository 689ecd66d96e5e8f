/**
 * Capacity steps end to end (`docbench capacity --http`): the store behind `docbench serve`, each
 * step a k6 run of the open model (k6's constant-arrival-rate executor: RATE iterations a second
 * whatever the latency, as many VUs as it takes up to MAX_VUS), after a k6 warm-up run at the same
 * rate whose figures are discarded.
 *
 * What differs from a direct step, and why the judgment differs with it: k6 starts each iteration
 * at its scheduled time when a VU is free, so a request is sent when it was due and its duration
 * includes the service's queueing (no coordinated omission while VUs last); but an iteration that
 * finds no free VU is dropped, not delayed. There is no `Intended-` row: a step is judged on
 * k6's own request-duration percentiles, with every dropped iteration counted as a failed
 * operation against the error budget (`capacity.dropped`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completeResult, k6Environment, readK6Result, runK6 } from '../client/k6-process.ts';
import { installK6 } from '../local/k6.ts';
import { CAPACITY } from '../report/capacity-curves.ts';
import { resultSchema, type Result } from '../results/schema.ts';
import { TOKEN_ENV } from '../service/auth.ts';
import { startServiceProcess, type ServiceProcess } from '../service/service-process.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { projectPath } from '../common/project-root.ts';

const SCRIPT = projectPath('k6', 'ycsb.ts');

/** k6's VUs may grow to this many times the workers while the service falls behind (as `docbench k6` allows). */
const VU_HEADROOM = 4;

export interface HttpStepsOptions {
  store: string;
  url: string | undefined;
  workloadFiles: readonly string[];
  /** The search's overrides (not a step's own): what the service runs. */
  overrides: readonly string[];
  threads: number;
  /** Service processes (node cluster). */
  serviceWorkers: number;
  quiet: boolean;
}

/** Dropped iterations of a k6 summary export (0 when none were). */
function droppedOf(exportFile: string): number {
  if (!existsSync(exportFile)) return 0;
  const data = JSON.parse(readFileSync(exportFile, 'utf8')) as {
    metrics?: Record<string, { count?: number; values?: { count?: number } } | undefined>;
  };
  const m = data.metrics?.dropped_iterations;
  return m?.count ?? m?.values?.count ?? 0;
}

export class HttpSteps {
  private constructor(
    private readonly k6: string,
    private readonly service: ServiceProcess,
    private readonly token: string,
    private readonly options: HttpStepsOptions,
  ) {}

  /** Build (or find) k6 and start the service on the loaded store. */
  static async start(options: HttpStepsOptions): Promise<HttpSteps> {
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const k6 = await installK6(log);
    const token = randomBytes(24).toString('hex');
    const args = [
      '--store',
      options.store,
      '--port',
      '0',
      '--workers',
      String(options.serviceWorkers),
      '--pool',
      String(options.threads * VU_HEADROOM),
      '--scenario',
      'ycsb',
      ...options.workloadFiles.flatMap((f) => ['-P', f]),
      ...options.overrides.flatMap((o) => ['-p', o]),
    ];
    if (options.url !== undefined) args.push('--url', options.url);
    const service = await startServiceProcess(args, { env: { ...process.env, [TOKEN_ENV]: token } });
    return new HttpSteps(k6, service, token, options);
  }

  /** One k6 run of the open model at the step's rate for `seconds`; its result and dropped iterations. */
  private async k6Run(p: WorkloadProperties, seconds: number): Promise<{ result: Result; dropped: number }> {
    const scratch = mkdtempSync(join(tmpdir(), 'docbench-capacity-k6-'));
    try {
      const summaryExport = join(scratch, 'summary.json');
      // The budget is judged here, from the figures: k6's own thresholds must not end a step.
      const env = {
        ...k6Environment({ ...p, maxexecutiontime: seconds, operationcount: 0 }),
        MAX_VUS: String(p.threadcount * VU_HEADROOM),
        P99_MS: '3600000',
        MAX_FAILED: '1',
        MAX_DROPPED: '1',
        BASE_URL: this.service.baseUrl,
        [TOKEN_ENV]: this.token,
        RESULT_FILE: '',
      };
      const run = await runK6(this.k6, SCRIPT, env, { quiet: true, summaryExport });
      const raw = readK6Result(summaryExport, { ...process.env, ...env }, SCRIPT, run.code);
      return {
        result: resultSchema.parse(
          completeResult(raw, run, this.options.workloadFiles.join(' '), [...this.options.overrides]),
        ),
        dropped: droppedOf(summaryExport),
      };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** A step: a warm-up run, then the measured one (`p` carries the step's rate and percentiles). */
  async step(p: WorkloadProperties, warmupSeconds: number, seconds: number): Promise<Result> {
    if (warmupSeconds > 0) await this.k6Run(p, warmupSeconds);
    const { result, dropped } = await this.k6Run(p, seconds);
    result.workload.properties[CAPACITY.dropped] = dropped;
    if (warmupSeconds > 0)
      result.notes.push(
        `a k6 run of ${warmupSeconds} s at the same rate warmed the service up first; its figures are not in this result`,
      );
    return result;
  }

  async close(): Promise<void> {
    await this.service.stop();
  }
}
