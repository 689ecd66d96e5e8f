/** Number formats shared by scenario tables, so every scenario prints figures the same way. */

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Bytes as MiB with two decimals (sizes here are datasets of a few to a few hundred MiB). */
export function formatMiB(bytes: number): string {
  return (bytes / 1048576).toFixed(2);
}

/** Milliseconds with precision that suits the magnitude: 0.42, 12.3, 1,234. */
export function formatMs(ms: number): string {
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return formatCount(ms);
}

export function formatSeconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
}

/** A duration for humans: `42 s`, `3 min 5 s`, `1 h 2 min`. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.ceil(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * How a table names a server that is no labelled stand-in: the real product when it said which
 * version it runs; otherwise (a server reached by a URL that does not identify itself, such as the
 * Couchbase mock behind a forwarded port) nothing is claimed.
 */
export function notStandInNote(store: {
  serverVersion: string;
  compatible?: { product: string; note: string } | undefined;
}): string {
  // A compatible product is a real server, but not the store's product: say which.
  if (store.compatible) return ` (${store.compatible.note})`;
  return store.serverVersion === 'unknown'
    ? ' (the server did not identify itself: not known to be the real product)'
    : ' (real server)';
}
