/**
 * `docbench serve` as a child process: started, waited for until it prints the address it
 * listens on, and stopped with SIGTERM (its graceful shutdown). Used by `docbench k6` and by the
 * tests, so both drive the service exactly as a user starts it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StartFailedError } from '../local/process.ts';
import { projectPath } from '../common/project-root.ts';

const DOCBENCH_BIN = projectPath('bin', 'docbench.js');

export interface ServiceProcess {
  /** `http://127.0.0.1:port` */
  baseUrl: string;
  child: ChildProcess;
  /** What the service printed on stderr so far (state changes, store errors). */
  stderr(): string;
  /** SIGTERM, then wait for the exit; resolves with the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/** Start `docbench serve <args>` (give `--port 0` for a free port) and wait until it listens. */
export function startServiceProcess(
  args: readonly string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [DOCBENCH_BIN, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (graceMs = 15_000): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(1000);
      reject(
        new StartFailedError(
          `docbench serve did not listen within ${(options.timeoutMs ?? 120_000) / 1000} s: ${stderr.trim().split('\n').at(-1) ?? ''}`,
        ),
      );
    }, options.timeoutMs ?? 120_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ baseUrl: match[1]!, child, stderr: () => stderr, stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new StartFailedError(
          `docbench serve exited (code ${code}) before listening: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      );
    });
  });
}
