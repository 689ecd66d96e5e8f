#!/usr/bin/env node
// Runs docbench's compiled JavaScript (dist/). A development checkout is known by the build's own
// settings, tsconfig.build.json, which the package does not ship: there, a build made from other
// sources than the checkout's is rebuilt first (scripts/build.mjs compares a content hash), so
// an out-of-date build never runs silently. An installed package runs the build it was packed
// with (npm's prepack builds it), and never rebuilds: its sources are incomplete and its files'
// times are the unpacking's.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../tsconfig.build.json', import.meta.url))) {
  const { buildIfStale } = await import('../scripts/build.mjs');
  buildIfStale();
} else if (!existsSync(new URL('../dist/src/cli/main.js', import.meta.url))) {
  process.stderr.write('docbench: this copy has no compiled build (dist/ is missing): install the package again\n');
  process.exit(2);
}
const { main } = await import('../dist/src/cli/main.js');
try {
  // Exit explicitly: a driver that keeps a socket or timer alive must not hang the CLI.
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  console.error(error);
  process.exit(1);
}
