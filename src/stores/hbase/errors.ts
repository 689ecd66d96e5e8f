/**
 * What docbench's own client of the HBase REST gateway reports (HBase has no official Node.js
 * driver; read by src/measure/failure-kind.ts). HBase overwrites on insert and update, so no error
 * of it is a write conflict.
 */
import { has, type StoreErrors } from '../../measure/error-facts.ts';

export const errors: StoreErrors = {
  shapes: {
    // Its HbaseRestError carries the gateway's HTTP status; 503 is the gateway's word for HBase out
    // of its reach, 504 for no answer in time. Its request timeout is a TimeoutError (read by name).
    'hbase-rest'(f) {
      if (f.raw.status === 503) return 'SERVICE_UNAVAILABLE';
      if (f.raw.status === 504) return 'TIMEOUT';
      if (has(f, 'HbaseRestError')) return 'ANSWER';
      return undefined;
    },
  },
};
