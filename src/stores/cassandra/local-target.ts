// Transitional: the local server moves into this folder; until then it re-exports the old module.
export { cassandraTarget as localTarget } from '../../local/cassandra.ts';
