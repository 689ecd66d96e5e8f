/**
 * The key a raw command is routed by on a cluster. ioredis finds it from its own command table;
 * node-redis's cluster client takes it from the caller (its typed commands know their keys, raw
 * ones do not), so docbench names it here for every command it sends: the first argument,
 * except for scripts (the first of their KEYS) and for commands about a node, not a key.
 */

/** Commands docbench sends that name no key: a cluster client sends them to any node. */
const KEYLESS = new Set([
  'PING',
  'INFO',
  'DBSIZE',
  'SCAN',
  'WAIT',
  'CLUSTER',
  'CONFIG',
  'COMMAND',
  'TIME',
  'ECHO',
  'SCRIPT',
  'FUNCTION',
  'MULTI',
  'EXEC',
  'DISCARD',
  'READONLY',
  'READWRITE',
]);
const SCRIPTS = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);

export function firstKey(args: readonly string[]): string | undefined {
  const name = args[0]!.toUpperCase();
  if (KEYLESS.has(name)) return undefined;
  if (SCRIPTS.has(name)) return Number(args[2]) > 0 ? args[3] : undefined;
  return args[1];
}
