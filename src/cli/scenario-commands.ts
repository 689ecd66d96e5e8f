import type { Command } from 'commander';
import { registerEcommerceCommand, registerEcommerceSeed } from './ecommerce-command.ts';
import { registerPersonsCommand, registerPersonsSeed } from './persons-command.ts';
import { registerK6Command } from './k6-command.ts';
import { registerServeCommand } from './serve-command.ts';

/**
 * Commands of the scenarios (`docbench seed <scenario>`, `docbench persons`, …). Each scenario
 * registers its own commands from its own module, so adding a scenario touches one line here.
 */
export function registerScenarioCommands(program: Command): void {
  const seed = program.command('seed').description("load a scenario's dataset into a store (its load phase)");
  registerPersonsSeed(seed);
  registerEcommerceSeed(seed);
  registerPersonsCommand(program);
  registerEcommerceCommand(program);
  // End-to-end mode: the HTTP service and the k6 runner.
  registerServeCommand(program);
  registerK6Command(program);
}
