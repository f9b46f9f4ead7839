import type { Logger } from 'pino';
import { EACH_WRITE_DURABLE } from '../../execution/write-durability.js';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../../config/gateway-config.js';
import { createGatewayEvents, type GatewayEventMap } from '../../events/gateway-events.js';
import { FlexibleRateLimiter } from '../../rate-limit/rate-limiter.js';
import type { GatewayStores } from '../gateway-stores.js';
import { RedisCandleStore } from './redis-candle-store.js';
import { LuaScript, RedisConnection } from './redis-connection.js';
import { RedisControlsChannel } from './redis-controls-channel.js';
import { createRedisEventTarget } from './redis-event-target.js';
import { redisExecutionStores } from './redis-execution-stores.js';
import { RedisSpendingLedger } from './redis-spending-ledger.js';
import { RedisFundingStore } from './redis-funding-store.js';
import { RedisIdentityStore } from './redis-identity-store.js';
import { RedisIngestionLease } from './redis-ingestion-lease.js';
import { RedisSnapshotCache } from './redis-snapshot-cache.js';

/**
 * The stores of the Redis mode, all on one connection (one command client, one subscriber).
 * Nothing talks to Redis until `connect()`.
 */
export function openRedisStores(
  config: Pick<GatewayConfig, 'redisKeyPrefix' | 'ingestLeaseTtlMs'> &
    Partial<Pick<GatewayConfig, 'redisConnectTimeoutMs' | 'redisLocalCopyMaxAgeMs'>> & { redisUrl: string },
  logger: Logger,
): GatewayStores {
  const redis = new RedisConnection({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger });
  const lease = new RedisIngestionLease(redis, { ttlMs: config.ingestLeaseTtlMs, logger });
  const cache = new RedisSnapshotCache(redis, {
    fencingToken: () => lease.fencingToken,
    ...(config.redisLocalCopyMaxAgeMs === undefined ? {} : { maxLocalAgeMs: config.redisLocalCopyMaxAgeMs }),
  });
  return {
    cache,
    candles: new RedisCandleStore(redis),
    funding: new RedisFundingStore(redis),
    spending: new RedisSpendingLedger(redis),
    identities: new RedisIdentityStore(redis),
    rateLimiter: redisRateLimiter(redis),
    events: createGatewayEvents(createRedisEventTarget<GatewayEventMap>(redis, logger)),
    execution: redisExecutionStores(redis),
    durability: EACH_WRITE_DURABLE,
    controlsChannel: new RedisControlsChannel(redis),
    lease,
    sharedState: { status: () => ({ mode: 'redis', ...redis.state(), ingestionLeader: lease.held, replica: redis.replicaId, leadingReplica: lease.leader }) },
    async connect() {
      await redis.open(config.redisConnectTimeoutMs);
      await cache.listen();
      logger.info({ prefix: config.redisKeyPrefix, replica: redis.replicaId }, 'shared state in Redis');
    },
    ping: () => redis.guard(async () => void (await redis.client.ping())),
    close: () => redis.close(),
  };
}

/** Counters shared by every replica; while Redis is unreachable each replica counts alone. */
export function redisRateLimiter(redis: RedisConnection): FlexibleRateLimiter {
  const storeClient = limiterStore(redis);
  return new FlexibleRateLimiter(
    (p) =>
      new RateLimiterRedis({
        storeClient,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: redis.key('rate', p.name),
        points: p.points,
        duration: p.windowSeconds,
        insuranceLimiter: new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name }),
      }),
  );
}

/**
 * What RateLimiterRedis uses of its store client (node-redis), on this connection, for the one
 * command every request makes: its counting script run by SHA (given the client itself, it sends
 * the script's whole text with every EVAL, which Redis hashes again each time), and without
 * node-redis' per-command timeout, which bounds only the wait before a command is written (a
 * disconnected client refuses at once) and costs an AbortSignal timer per command.
 */
function limiterStore(redis: RedisConnection) {
  // Merged over the client's own options: 0 is no timeout.
  const untimed = redis.client.withCommandOptions({ timeout: 0 });
  const scripts = new Map<string, LuaScript>();
  return {
    get isReady(): boolean {
      return redis.client.isReady;
    },
    eval(source: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> {
      let script = scripts.get(source);
      if (!script) scripts.set(source, (script = new LuaScript(source)));
      return redis.run(script, options.keys, options.arguments, untimed);
    },
    multi: () => redis.client.multi(),
    del: (key: string) => redis.client.del(key),
  };
}
