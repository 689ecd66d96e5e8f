import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  applyOverride,
  parsePropertiesText,
  resolveProperties,
  WorkloadError,
  type RawProperties,
  type WorkloadProperties,
} from './properties.ts';
import { projectPath } from '../common/project-root.ts';

/** The workload files shipped with docbench (YCSB's A–F, Carvalho et al. 2023's G and H, record-shape presets). */
export const FIXTURE_WORKLOADS_DIR = projectPath('fixtures', 'workloads');

/**
 * A path as given, or the name of a shipped workload (`workloada`, `a`, `record-10kb`), also as
 * YCSB's own command lines name them (`workloads/workloadb`, run from YCSB's folder) when no such
 * file is here.
 */
export function resolveWorkloadPath(given: string): string {
  if (existsSync(given)) {
    if (statSync(given).isDirectory())
      throw new WorkloadError(`workload file ${given} is a directory; expected a .properties file`);
    return resolve(given);
  }
  const name = dirname(given) === 'workloads' ? basename(given) : given;
  const candidates = [name, `workload${name}`, join('presets', name)].map((n) => join(FIXTURE_WORKLOADS_DIR, n));
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  if (found) return found;
  throw new WorkloadError(
    `workload file ${given} not found (neither a path nor a shipped workload such as workloada … workloadh)`,
  );
}

export interface LoadedWorkload {
  properties: WorkloadProperties;
  /** Files as resolved, in the order given. */
  files: string[];
  /** Short name for reports: the last file's base name, or `custom`. */
  name: string;
}

/** Read `-P` files in order, then apply `-p` overrides, as YCSB's Client does. */
export function loadWorkload(files: readonly string[], overrides: readonly string[]): LoadedWorkload {
  const raw: RawProperties = { values: new Map(), origin: new Map() };
  const resolved: string[] = [];
  for (const file of files) {
    const path = resolveWorkloadPath(file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new WorkloadError(`cannot read workload file ${file}: ${(error as Error).message}`);
    }
    parsePropertiesText(text, file, raw);
    resolved.push(path);
  }
  for (const o of overrides) applyOverride(raw, o);
  const workloadFiles = resolved.filter((p) => !p.includes(`${join('workloads', 'presets')}`));
  const last = workloadFiles.at(-1) ?? resolved.at(-1);
  return { properties: resolveProperties(raw), files: resolved, name: last ? basename(last) : 'custom' };
}
