/**
 * What Redis's two clients' errors mean (read by src/measure/failure-kind.ts; no driver is
 * imported here, classes are matched by name). Redis overwrites on insert and update, so no
 * error of it is a write conflict.
 */
import { has, isObject, type Outage, type StoreErrors, type Verdict } from '../../measure/error-facts.ts';

/**
 * A Redis error reply starts with its error code. Most are the store's answer (WRONGTYPE, NOAUTH,
 * OOM, …); these say the server cannot serve now: loading its data after a restart, a replica
 * without its primary, a cluster that is down or moving slots. A cluster client follows MOVED and
 * ASK itself; one that reaches docbench is a redirection the client could not follow (a pipeline
 * with a write in it is not resent, as part of it may have run): a failover moved the slot.
 */
const REDIS_UNAVAILABLE_REPLIES = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|MOVED|ASK)\b/;

function redisReply(message: string): Verdict {
  return REDIS_UNAVAILABLE_REPLIES.test(message) ? 'SERVICE_UNAVAILABLE' : 'ANSWER';
}

/** ioredis's errors that are plain `Error`s, known only by their fixed text. */
const IOREDIS_MESSAGES: readonly [RegExp, Outage][] = [
  [/^Connection is closed\.$/, 'SERVICE_UNAVAILABLE'],
  [/^Stream isn't writeable and enableOfflineQueue options is false$/, 'SERVICE_UNAVAILABLE'],
  [/^Command timed out$/, 'TIMEOUT'],
  // Its Cluster: a command still failing after its retries (a master lost, a failover not yet
  // done), a cluster not ready, or no node answering the slot map's reload.
  [/^Too many Cluster redirections\. Last error: /, 'SERVICE_UNAVAILABLE'],
  [/^Cluster isn't ready and enableOfflineQueue options is false$/, 'SERVICE_UNAVAILABLE'],
  [/^Failed to refresh slots cache\.?$/, 'SERVICE_UNAVAILABLE'],
  [/^None of startup nodes is available$/, 'SERVICE_UNAVAILABLE'],
];

export const errors: StoreErrors = {
  shapes: {
    ioredis(f) {
      if (has(f, 'ReplyError')) return redisReply(f.message);
      if (has(f, 'MaxRetriesPerRequestError', 'ClusterAllFailedError')) return 'SERVICE_UNAVAILABLE';
      // The rest are plain Errors: see IOREDIS_MESSAGES.
      return undefined;
    },
    'node-redis'(f) {
      if (has(f, 'ErrorReply', 'SimpleError', 'BlobError', 'MultiErrorReply')) return redisReply(f.message);
      if (
        has(
          f,
          'ClientClosedError',
          'ClientOfflineError',
          'SocketClosedUnexpectedlyError',
          'DisconnectsClientError',
          'RootNodesUnavailableError',
          'ReconnectStrategyError',
        )
      )
        return 'SERVICE_UNAVAILABLE';
      // Its command timeout is a TimeoutError with no message (a Couchbase TimeoutError, which has a context, is the Couchbase shape's).
      if (
        has(
          f,
          'ConnectionTimeoutError',
          'SocketTimeoutError',
          'CommandTimeoutDuringMaintenanceError',
          'SocketTimeoutDuringMaintenanceError',
        )
      )
        return 'TIMEOUT';
      if (has(f, 'TimeoutError') && !isObject(f.raw.context)) return 'TIMEOUT';
      return undefined;
    },
  },
  messages: IOREDIS_MESSAGES,
};
