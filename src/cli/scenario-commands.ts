import type { Command } from 'commander';

/**
 * Commands of the scenarios (`docbench seed <scenario>`, `docbench persons`, …). Each scenario
 * registers its own commands from its own module, so adding a scenario touches one line here.
 */
export function registerScenarioCommands(program: Command): void {
  const seed = program.command('seed').description("load a scenario's dataset into a store (its load phase)");
  void seed;
}
