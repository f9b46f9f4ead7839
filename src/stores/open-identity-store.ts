import { pino } from 'pino';
import type { IdentityStore } from '../auth/identity-store.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { MemoryIdentityStore } from './memory/memory-identity-store.js';
import { RedisConnection } from './redis/redis-connection.js';
import { RedisIdentityStore } from './redis/redis-identity-store.js';
import { openSqliteDatabase } from './sqlite/sqlite-database.js';
import { SqliteIdentityStore } from './sqlite/sqlite-identity-store.js';
import { importLegacyIdentities } from './sqlite/sqlite-legacy-identities.js';

/**
 * The keys CLI's store, the one the gateway uses: the replicas' Redis when REDIS_URL is set,
 * else gateway.db in the data directory (shared with a running gateway through WAL; the CLI
 * takes no data-directory lock, it is no gateway).
 */
export async function openIdentityStoreForCli(
  config: Pick<GatewayConfig, 'dataDir' | 'redisUrl' | 'redisKeyPrefix'>,
): Promise<{ store: IdentityStore; close(): Promise<void> }> {
  if (!config.redisUrl) {
    if (!config.dataDir) return { store: new MemoryIdentityStore(), close: async () => undefined };
    const db = openSqliteDatabase(config.dataDir);
    importLegacyIdentities(db, config.dataDir);
    return { store: new SqliteIdentityStore(db), close: async () => void db.close() };
  }
  // Logs go to stderr: stdout carries the command's JSON output.
  const redis = new RedisConnection({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger: pino({ level: 'error' }, pino.destination(2)) });
  await redis.open(5_000);
  return { store: new RedisIdentityStore(redis), close: () => redis.close() };
}
