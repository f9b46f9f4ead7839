import { LuaScript } from './redis-connection.js';

/**
 * Small atomic building blocks, shared by the Redis stores (and the ingestion lease). Each is one
 * script, so of any number of replicas racing on the same key exactly one wins.
 */

/** KEYS[1]: a string key; ARGV: expected value, ttl ms. Extends the key's expiry only while it still holds the expected value. */
export const COMPARE_AND_PEXPIRE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

/** KEYS[1]: a string key; ARGV[1]: expected value. Deletes the key only while it still holds the expected value. */
export const COMPARE_AND_DELETE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

/** KEYS[1]: a hash; ARGV: field, expected value, new value. Sets the field only while it still holds the expected value. */
export const COMPARE_AND_SET_FIELD = new LuaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`);
