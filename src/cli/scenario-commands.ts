import type { Command } from 'commander';
import { SCENARIO_NAMES, scenarioEntry } from '../../scenarios/scenarios.ts';
import type { ScenarioCommands } from '../../scenarios/scenario.ts';
import { registerK6Command } from './k6-command.ts';
import { registerServeCommand } from './serve-command.ts';

/** Each scenario's commands module (light: registration only), in the SCENARIOS table's order. */
export async function scenarioCommands(): Promise<Map<string, ScenarioCommands>> {
  const loaded = await Promise.all(
    SCENARIO_NAMES.map(async (name) => [name, (await scenarioEntry(name).commands()).commands] as const),
  );
  return new Map(loaded);
}

/**
 * Commands of the scenarios (`docbench seed <scenario>`, `docbench persons`, …), every one
 * registered by its scenario's own `cli.ts` (SCENARIOS table): adding a scenario touches no line
 * here.
 */
export function registerScenarioCommands(program: Command, commands: ReadonlyMap<string, ScenarioCommands>): void {
  const seed = program.command('seed').description("load a scenario's dataset into a store (its load phase)");
  for (const c of commands.values()) c.registerSeed?.(seed);
  for (const c of commands.values()) c.register?.(program);
  // End-to-end mode: the HTTP service and the k6 runner.
  registerServeCommand(program);
  registerK6Command(program, commands);
}
