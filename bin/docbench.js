#!/usr/bin/env node
// Runs docbench's TypeScript sources directly through tsx's loader (no build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
try {
  // Exit explicitly: a driver that keeps a socket or timer alive must not hang the CLI.
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  console.error(error);
  process.exit(1);
}
