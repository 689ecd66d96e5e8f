// Transitional: the local server moves into this folder; until then it re-exports the old module.
export { redisTarget as localTarget } from '../../local/redis.ts';
