#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docbenchVersion } from '../version.ts';
import { storeOfYcsbBinding } from '../workload/ycsb-bindings.ts';
import { isUserError, USER_ERROR_EXIT_CODE } from './errors.ts';
import { registerReportCommand } from './report-command.ts';
import { registerScenarioCommands, scenarioCommands } from './scenario-commands.ts';
import { registerStudyCommand } from './study-command.ts';
import { registerCapacityCommand } from './capacity-command.ts';
import { registerDiffCommand } from './diff-command.ts';
import { registerK8sCommand } from './k8s-command.ts';
import { ExitStatus } from './exit-status.ts';
import { registerSweepCommand } from './sweep-command.ts';
import { registerCompareCommand } from './compare-command.ts';
import { registerPhaseCommands } from './phase-commands.ts';
import { registerServerCommands } from './server-commands.ts';
import { interrupts } from '../common/interrupts.ts';

// Every command's work is imported when that command runs (`await import(…)` in its action):
// `--version`, `--help` and `status` load commander and the option tables, no driver, no
// scenario, no report renderer (test/unit/lazy-scenarios.test.ts checks it).

/** Commands that handle SIGINT/SIGTERM themselves (the service stops gracefully on its own). */
const OWN_SIGNAL_HANDLING = new Set(['serve']);

/**
 * YCSB habits: `docbench -load …` / `docbench -t …`, and single-dash `-threads`, `-target`,
 * `-db`, `-s`. Rewritten to docbench's commands and flags before commander sees them.
 */
export function translateYcsbArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let command: string | undefined;
  let binding = false;
  for (const arg of args) {
    // YCSB's binding names (mongodb-async, couchbase3, …) name docbench's stores.
    if (binding) {
      out.push(storeOfYcsbBinding(arg) ?? arg);
      binding = false;
    } else if (arg === '-load') command = 'load';
    else if (arg === '-t') command = 'run';
    else if (arg === '-threads') out.push('--threads');
    else if (arg === '-target') out.push('--target');
    else if (arg === '-db') {
      out.push('--store');
      binding = true;
    } else if (arg === '-s')
      continue; // status lines are always on
    else out.push(arg);
  }
  return command ? [command, ...out] : out;
}

export async function buildProgram(): Promise<Command> {
  const scenarios = await scenarioCommands();
  const program = new Command('docbench')
    .description(
      'Application-level benchmark for document and NoSQL stores: YCSB-exact workloads, honest latency, verified answers.',
    )
    .version(docbenchVersion())
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureOutput({
    outputError: (text, write) => write(text.startsWith('error:') ? `docbench: ${text}` : text),
  });

  registerPhaseCommands(program, scenarios);

  registerCompareCommand(program);

  registerServerCommands(program);
  registerScenarioCommands(program, scenarios);
  registerReportCommand(program);
  registerSweepCommand(program);
  registerStudyCommand(program);
  registerCapacityCommand(program);
  registerDiffCommand(program);
  registerK8sCommand(program);
  return program;
}

/**
 * Run one command; resolves with the exit code: 0, 1 when `diff` found a regression, 2 for a user error, 130/143 after SIGINT or
 * SIGTERM (the interrupted run's partial result is printed and written first; see
 * common/interrupts.ts).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram();
  const args = translateYcsbArgs(argv);
  const handleSignals = !OWN_SIGNAL_HANDLING.has(args[0] ?? '');
  if (handleSignals) interrupts.install();
  try {
    await program.parseAsync(args, { from: 'user' });
    return interrupts.exitCode ?? 0;
  } catch (error) {
    // A command that finished and chose its code (diff: 1 on a regression).
    if (error instanceof ExitStatus) return interrupts.exitCode ?? error.code;
    const interrupted = interrupts.exitCode;
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage mistakes were already printed by commander.
      return error.exitCode === 0 ? 0 : USER_ERROR_EXIT_CODE;
    }
    if (isUserError(error)) {
      process.stderr.write(`docbench: ${error.message}\n`);
      return interrupted ?? USER_ERROR_EXIT_CODE;
    }
    if (interrupted !== undefined) {
      // What broke while stopping (a driver closed under a call) is no bug worth a stack trace.
      process.stderr.write(
        `docbench: interrupted by ${interrupts.signal}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`,
      );
      return interrupted;
    }
    throw error;
  } finally {
    if (handleSignals) interrupts.uninstall();
  }
}

// Run when executed directly (`tsx src/cli/main.ts`); bin/docbench.js imports main() instead.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Exit explicitly: a driver that keeps a socket or timer alive must not hang the CLI.
  // (stdout/stderr writes to files and pipes are synchronous on Linux, so nothing is lost.)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
