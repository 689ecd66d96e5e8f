/**
 * The two things `docbench k8s collect` asks a cluster, through the user's own kubectl (its
 * context, its credentials): which pods a run had, and each one's log.
 */
import { spawnSync } from 'node:child_process';
import { UsageError } from '../common/user-error.ts';

export interface PodFacts {
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Pending, Running, Succeeded, Failed, Unknown. */
  phase: string;
}

/** Runs kubectl; a test or a wrapper may name another binary in DOCBENCH_KUBECTL. */
export function kubectl(args: readonly string[], namespace: string | undefined): string {
  const binary = process.env.DOCBENCH_KUBECTL ?? 'kubectl';
  const full = [...(namespace !== undefined ? ['--namespace', namespace] : []), ...args];
  const r = spawnSync(binary, full, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error !== undefined) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      missing
        ? `${binary} is not on PATH: install it, or save each pod's log (kubectl logs <pod> > part-N.log) and pass the files with --logs`
        : `${binary} ${full.join(' ')}: ${r.error.message}`,
    );
  }
  if (r.status !== 0) {
    const first = r.stderr.trim().split('\n')[0] ?? '';
    throw new UsageError(`${binary} ${full.join(' ')} failed: ${first}`);
  }
  return r.stdout;
}

export function podsOf(selector: string, namespace: string | undefined): PodFacts[] {
  const list = JSON.parse(kubectl(['get', 'pods', '--selector', selector, '--output', 'json'], namespace)) as {
    items?: {
      metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
      status?: { phase?: string };
    }[];
  };
  return (list.items ?? []).map((p) => ({
    name: p.metadata?.name ?? '',
    labels: p.metadata?.labels ?? {},
    annotations: p.metadata?.annotations ?? {},
    phase: p.status?.phase ?? 'Unknown',
  }));
}

export function logOf(pod: string, container: string, namespace: string | undefined): string {
  return kubectl(['logs', pod, '--container', container], namespace);
}

/** One object as the API server holds it (`kubectl get <kind> <name> -o json`). */
export function objectOf(kind: string, name: string, namespace: string | undefined): Record<string, unknown> {
  return JSON.parse(kubectl(['get', kind, name, '--output', 'json'], namespace)) as Record<string, unknown>;
}
