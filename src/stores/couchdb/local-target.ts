// Transitional: the local server moves into this folder; until then it re-exports the old module.
export { couchdbTarget as localTarget } from '../../local/couchdb.ts';
