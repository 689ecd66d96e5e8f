#!/usr/bin/env node
// Runs docbench's compiled JavaScript (dist/, built by `npm ci` through npm's prepare script).
// In a checkout whose sources are newer than that build, it rebuilds first (scripts/build.mjs):
// an out-of-date build never runs silently.
import { buildIfStale } from '../scripts/build.mjs';

buildIfStale();
const { main } = await import('../dist/src/cli/main.js');
try {
  // Exit explicitly: a driver that keeps a socket or timer alive must not hang the CLI.
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  console.error(error);
  process.exit(1);
}
