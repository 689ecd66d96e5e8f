/**
 * Manifests out: one YAML file per object in a folder (`kubectl apply -f <dir>`), or every object
 * on stdout. A Secret holding a password is written to a file only (mode 0600), never printed.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { maskUrl } from '../common/mask-url.ts';
import { UsageError } from '../common/user-error.ts';
import type { Manifest } from './job-manifests.ts';

export function toYaml(manifests: readonly Manifest[]): string {
  return manifests.map((m) => stringify(m, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}

/** A Secret whose values hold a password (what maskUrl would hide). */
function holdsPassword(manifest: Manifest): boolean {
  if (manifest.kind !== 'Secret') return false;
  const data = (manifest.stringData ?? {}) as Record<string, string>;
  return Object.values(data).some((v) => maskUrl(v) !== v);
}

export interface Written {
  /** The files written, in the order to apply them (empty on stdout). */
  files: string[];
  /** What goes on stdout. */
  stdout: string;
  /** Lines for stderr: what was left out, and why. */
  notes: string[];
}

export function writeManifests(manifests: readonly Manifest[], outDir: string | undefined): Written {
  if (outDir === undefined) {
    const printable = manifests.filter((m) => !holdsPassword(m));
    const notes = manifests.filter(holdsPassword).map((m) => {
      const meta = m.metadata as { name: string };
      const url = Object.values(m.stringData as Record<string, string>)[0]!;
      return `the Secret ${meta.name} holds a password and is not printed: create it with kubectl create secret generic ${meta.name} --from-literal=url='${maskUrl(url)}' (the real password for ***), or write the manifests to a folder with --out-dir`;
    });
    return { files: [], stdout: toYaml(printable), notes };
  }
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UsageError(`--out-dir ${outDir}: not a directory`);
  mkdirSync(outDir, { recursive: true });
  const files = manifests.map((m, i) => {
    const path = join(outDir, `${i + 1}-${m.kind.toLowerCase()}.yaml`);
    const secret = m.kind === 'Secret';
    writeFileSync(path, toYaml([m]), secret ? { mode: 0o600 } : {});
    // A Secret's file is its owner's alone, even when it existed before with a wider mode.
    if (secret) chmodSync(path, 0o600);
    return path;
  });
  return { files, stdout: '', notes: [] };
}
