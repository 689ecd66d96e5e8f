// Transitional: the local server moves into this folder; until then it re-exports the old module.
export { couchbaseTarget as localTarget } from '../../local/couchbase.ts';
