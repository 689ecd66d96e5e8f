/**
 * What the mongodb driver's errors mean (read by src/measure/failure-kind.ts and
 * src/service/conflicts.ts; no driver is imported here, classes are matched by name).
 */
import { has, type StoreErrors, type Verdict } from '../../measure/error-facts.ts';

/** MongoDB server error codes (MongoDB's error_codes.yml) of a server that cannot serve now. */
const MONGO_TIMEOUT_CODES = new Set([50 /* MaxTimeMSExpired */, 89 /* NetworkTimeout */, 262 /* ExceededTimeLimit */]);
const MONGO_UNAVAILABLE_CODES = new Set([
  6 /* HostUnreachable */, 7 /* HostNotFound */, 91 /* ShutdownInProgress */, 189 /* PrimarySteppedDown */,
  10107 /* NotWritablePrimary */, 11600 /* InterruptedAtShutdown */, 11602 /* InterruptedDueToReplStateChange */,
  13435 /* NotPrimaryNoSecondaryOk */, 13436 /* NotPrimaryOrSecondary */,
]);

function mongoServerCode(code: unknown): Verdict {
  if (typeof code !== 'number') return 'ANSWER';
  if (MONGO_TIMEOUT_CODES.has(code)) return 'TIMEOUT';
  if (MONGO_UNAVAILABLE_CODES.has(code)) return 'SERVICE_UNAVAILABLE';
  return 'ANSWER';
}

/** MongoDB's duplicate key error code (E11000): an insert of an existing `_id`. */
const MONGODB_DUPLICATE_KEY = 11000;

export const errors: StoreErrors = {
  shapes: {
    mongodb(f, classify) {
      if (has(f, 'MongoNetworkTimeoutError', 'MongoOperationTimeoutError', 'MongoWaitQueueTimeoutError'))
        return 'TIMEOUT';
      // No server could be selected: a timeout when the server did not answer in time, else out of reach.
      if (has(f, 'MongoServerSelectionError'))
        return classify(f.raw.cause) === 'TIMEOUT' ? 'TIMEOUT' : 'SERVICE_UNAVAILABLE';
      if (
        has(
          f,
          'MongoNetworkError',
          'MongoPoolClearedError',
          'MongoTopologyClosedError',
          'MongoServerClosedError',
          'MongoNotConnectedError',
        )
      )
        return 'SERVICE_UNAVAILABLE';
      if (has(f, 'MongoServerError', 'MongoBulkWriteError', 'MongoWriteConcernError')) return mongoServerCode(f.code);
      return undefined;
    },
  },
  conflict: (f) => f.code === MONGODB_DUPLICATE_KEY && typeof f.raw.name === 'string' && f.raw.name.startsWith('Mongo'),
};
