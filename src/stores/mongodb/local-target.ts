// Transitional: the local server moves into this folder; until then it re-exports the old module.
export { mongodbTarget as localTarget } from '../../local/mongodb.ts';
