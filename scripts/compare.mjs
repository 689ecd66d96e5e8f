#!/usr/bin/env node
// `npm run compare`: the main job on a fresh clone: dependencies, local servers (started by
// docbench itself on first use), then YCSB A–H on every local store with one table.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, root } from './ensure-deps.mjs';

ensureDependencies();
const result = spawnSync(process.execPath, [join(root, 'bin', 'docbench.js'), 'compare', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
