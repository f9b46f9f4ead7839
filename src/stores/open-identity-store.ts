import { join } from 'node:path';
import { pino } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';
import { FileIdentityStore } from './file/file-identity-store.js';
import type { IdentityStore } from '../auth/identity-store.js';
import { MemoryIdentityStore } from './memory/memory-identity-store.js';
import { RedisConnection } from './redis/redis-connection.js';
import { RedisIdentityStore } from './redis/redis-identity-store.js';

/** The identity store for a configuration; the server and the keys CLI open the same one. */
export function openIdentityStore(config: Pick<GatewayConfig, 'dataDir'>): IdentityStore {
  return config.dataDir ? new FileIdentityStore(join(config.dataDir, 'identities.json')) : new MemoryIdentityStore();
}

/** The keys CLI's store: the replicas' Redis when REDIS_URL is set, else the embedded one. */
export async function openIdentityStoreForCli(
  config: Pick<GatewayConfig, 'dataDir' | 'redisUrl' | 'redisKeyPrefix'>,
): Promise<{ store: IdentityStore; close(): Promise<void> }> {
  if (!config.redisUrl) return { store: openIdentityStore(config), close: async () => undefined };
  // Logs go to stderr: stdout carries the command's JSON output.
  const redis = new RedisConnection({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger: pino({ level: 'error' }, pino.destination(2)) });
  await redis.open(5_000);
  return { store: new RedisIdentityStore(redis), close: () => redis.close() };
}
