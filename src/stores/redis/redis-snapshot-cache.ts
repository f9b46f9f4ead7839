import type { MarketDefinition, MarketSnapshot, OrderBookSnapshot } from '../../domain/market.js';
import type { SourceHealth } from '../../domain/source-health.js';
import type { SnapshotCache } from '../../market-data/snapshot-cache.js';
import { LocalSnapshotTable } from './local-snapshot-table.js';
import { sharedStateUnavailable } from '../../errors/availability-refusals.js';
import { isConnectionError, LuaScript, type RedisConnection } from './redis-connection.js';

type Kind = 'market' | 'book' | 'health' | 'listing';
const ALL_SOURCES = '*';

export interface RedisSnapshotCacheOptions {
  /**
   * Longest a local copy answers without asking Redis, as a bound on a missed invalidation (default
   * 10 s); the version moves at least every half of it, so no answer rendered from the copies outlives them by more.
   */
  maxLocalAgeMs?: number;
  /** The ingestion lease's fencing token while this replica leads; writes without one are not fenced (ingest driven by hand). */
  fencingToken?: () => number | undefined;
}

/**
 * KEYS[1] snapshot hash, KEYS[2] the lease's fencing counter; ARGV: token, field,
 * JSON, channel, invalidation message. Refuses a write whose token is older than the newest issued.
 */
const FENCED_WRITE = new LuaScript(`
if tonumber(ARGV[1]) < tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`);

/** A write refused by the fence: this replica no longer leads ingestion. */
export class FencedWriteError extends Error {
  constructor(token: number) {
    super(`snapshot write refused: fencing token ${token} is older than the current lease`);
  }
}

/**
 * The public snapshot cache in Redis: one hash per kind (`snapshot:market`, `snapshot:book`,
 * `snapshot:health`, field = market or source id, value = JSON). Each write publishes
 * `<replica>|<kind>|<id>` on `snapshot:changed` in the same MULTI.
 *
 * Reads are served from a process-local copy while it is valid, so the public plane makes no
 * Redis round trip per request; other replicas' writes invalidate it through pub/sub, and it is
 * not trusted while the subscriber is disconnected (messages may have been missed). When Redis
 * cannot be reached, reads answer with the last known copy, its sources reported down so every
 * response built on it is marked stale, or with a clean 503 when there is no copy at all.
 *
 * The version (`version()`) is this replica's own count of the changes it learnt of: its writes,
 * every invalidation another replica's write sent it, and each loss or return of the connection.
 * Undefined while the connection is not whole or before `listen()`: an invalidation could then be
 * missed, so nothing is reused (answers are rendered every time) until the subscription is back.
 */
export class RedisSnapshotCache implements SnapshotCache {
  private readonly markets: LocalSnapshotTable<MarketSnapshot>;
  private readonly books: LocalSnapshotTable<OrderBookSnapshot>;
  private readonly health: LocalSnapshotTable<SourceHealth[]>;
  private readonly keys: Record<Kind, string>;
  private readonly channel: string;
  private readonly fenceKey: string;
  private readonly fencingToken: () => number | undefined;
  private readonly listingListeners: ((sourceId: string) => void)[] = [];
  /** Changes this replica learnt of (see the class comment); the version while the subscription stands. */
  private changes = 0;
  /** Whether `listen()` subscribed: before, other replicas' writes are not heard. */
  private listening = false;
  private readonly epochMs: number;
  private epoch = 0;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisSnapshotCacheOptions = {},
  ) {
    const maxAge = options.maxLocalAgeMs ?? 10_000;
    this.markets = new LocalSnapshotTable(maxAge);
    this.books = new LocalSnapshotTable(maxAge);
    this.health = new LocalSnapshotTable(maxAge);
    this.epochMs = Math.max(1, maxAge / 2);
    this.keys = {
      market: redis.key('snapshot', 'market'),
      book: redis.key('snapshot', 'book'),
      health: redis.key('snapshot', 'health'),
      listing: redis.key('snapshot', 'listing'),
    };
    this.channel = redis.key('snapshot', 'changed');
    this.fenceKey = redis.key('ingest', 'fence');
    this.fencingToken = options.fencingToken ?? (() => undefined);
  }

  /** Starts following other replicas' writes; call once the connection is open. */
  async listen(): Promise<void> {
    // Messages may have been missed while disconnected: nothing local is trusted until re-read,
    // and nothing rendered before the outage is reused after it.
    this.redis.onStateChange(() => {
      for (const t of [this.markets, this.books, this.health]) t.invalidateAll();
      this.changes += 1;
    });
    await this.redis.subscriber.subscribe(this.channel, (message) => this.onChanged(message));
    this.changes += 1;
    this.listening = true;
  }

  /**
   * A number that moves with every change this replica learns of, read synchronously: an answer
   * rendered under it stands until the next invalidation arrives. Undefined while the connection
   * (commands or subscriber) is not ready: invalidations may be missed then, so every answer is
   * rendered; the return of the connection moves it. It also moves every half of the local copies'
   * age bound, the backstop for an invalidation lost without the connection dropping.
   */
  version(): number | undefined {
    if (!this.listening || !this.redis.connected) return undefined;
    const epoch = Math.floor(Date.now() / this.epochMs);
    if (epoch !== this.epoch) {
      this.epoch = epoch;
      this.changes += 1;
    }
    return this.changes;
  }

  async putMarket(snapshot: MarketSnapshot): Promise<void> {
    await this.write('market', snapshot.marketId, snapshot, this.markets, () => this.markets.write(snapshot.marketId, snapshot));
  }

  async getMarket(marketId: string): Promise<MarketSnapshot | undefined> {
    return (await this.getMarkets([marketId]))[0];
  }

  async getMarkets(marketIds: readonly string[]): Promise<(MarketSnapshot | undefined)[]> {
    const local = marketIds.map((id) => this.localCopy(this.markets, id));
    const missing = [...new Set(marketIds.filter((_, i) => local[i] === undefined))];
    if (missing.length === 0) return local;
    const generations = missing.map((id) => this.markets.generation(id));
    let raw: (string | null)[];
    try {
      raw = await this.redis.client.hmGet(this.keys.market, missing);
    } catch (e) {
      if (!isConnectionError(e)) throw e;
      const lastKnown = marketIds.map((id, i) => local[i] ?? this.markets.lastKnown(id));
      if (lastKnown.every((s) => s === undefined)) throw sharedStateUnavailable();
      return lastKnown;
    }
    const fetched = new Map<string, MarketSnapshot | undefined>();
    missing.forEach((id, i) => {
      const value = parse<MarketSnapshot>(raw[i]);
      this.markets.fill(id, value, generations[i]!);
      fetched.set(id, value);
    });
    return marketIds.map((id, i) => local[i] ?? fetched.get(id));
  }

  async putOrderBook(book: OrderBookSnapshot): Promise<void> {
    await this.write('book', book.marketId, book, this.books, () => this.books.write(book.marketId, book));
  }

  async getOrderBook(marketId: string): Promise<OrderBookSnapshot | undefined> {
    const local = this.localCopy(this.books, marketId);
    if (local) return local;
    const generation = this.books.generation(marketId);
    try {
      const value = parse<OrderBookSnapshot>(await this.redis.client.hGet(this.keys.book, marketId));
      this.books.fill(marketId, value, generation);
      return value;
    } catch (e) {
      if (!isConnectionError(e)) throw e;
      const lastKnown = this.books.lastKnown(marketId);
      if (!lastKnown) throw sharedStateUnavailable();
      return lastKnown;
    }
  }

  async putSourceHealth(health: SourceHealth): Promise<void> {
    await this.write('health', health.sourceId, health, this.health, () => {
      const list = this.localCopy(this.health, ALL_SOURCES);
      if (list) this.health.write(ALL_SOURCES, bySourceId([...list.filter((h) => h.sourceId !== health.sourceId), health]));
      else this.health.invalidate(ALL_SOURCES);
    });
  }

  async getSourceHealth(sourceId: string): Promise<SourceHealth | undefined> {
    return (await this.listSourceHealth()).find((h) => h.sourceId === sourceId);
  }

  async listSourceHealth(): Promise<SourceHealth[]> {
    const local = this.localCopy(this.health, ALL_SOURCES);
    if (local) return local;
    const generation = this.health.generation(ALL_SOURCES);
    try {
      const all = await this.redis.client.hGetAll(this.keys.health);
      const list = bySourceId(Object.values(all).map((v) => JSON.parse(v) as SourceHealth));
      this.health.fill(ALL_SOURCES, list, generation);
      return list;
    } catch (e) {
      if (!isConnectionError(e)) throw e;
      const lastKnown = this.health.lastKnown(ALL_SOURCES);
      if (!lastKnown) throw sharedStateUnavailable();
      // This replica cannot vouch for any source now: what it serves is stale until Redis returns.
      return lastKnown.map((h) => ({ ...h, status: 'down' as const, lastError: 'shared state (Redis) unreachable from this replica' }));
    }
  }

  async putListing(sourceId: string, markets: readonly MarketDefinition[]): Promise<void> {
    await this.write('listing', sourceId, markets, undefined, () => undefined);
  }

  /** Read from Redis each time: listings are read at start and when another replica announces one. */
  async getListing(sourceId: string): Promise<MarketDefinition[] | undefined> {
    return parse<MarketDefinition[]>(await this.redis.guard(() => this.redis.client.hGet(this.keys.listing, sourceId)));
  }

  onListingChanged(listener: (sourceId: string) => void): void {
    this.listingListeners.push(listener);
  }

  private localCopy<V>(table: LocalSnapshotTable<V>, id: string): V | undefined {
    return this.redis.subscriber.isReady ? table.fresh(id) : undefined;
  }

  /**
   * Writes to Redis, then `keep` updates the local copy; the version moves in the same turn, after
   * it, so an answer rendered under the new version reads the new copy. A write that failed may
   * still have landed (a timeout): its local copy is no longer trusted, and the version moves too.
   */
  private async write<V>(kind: Kind, id: string, value: unknown, table: LocalSnapshotTable<V> | undefined, keep: () => void): Promise<void> {
    try {
      await this.send(kind, id, value);
      keep();
    } catch (e) {
      table?.invalidate(kind === 'health' ? ALL_SOURCES : id);
      throw e;
    } finally {
      this.changes += 1;
    }
  }

  private async send(kind: Kind, id: string, value: unknown): Promise<void> {
    const token = this.fencingToken();
    const message = `${this.redis.replicaId}|${kind}|${id}`;
    if (token === undefined) {
      const multi = this.redis.client.multi().hSet(this.keys[kind], id, JSON.stringify(value)).publish(this.channel, message);
      await this.redis.guard(() => multi.exec());
      return;
    }
    const args = [token, id, JSON.stringify(value), this.channel, message];
    const written = await this.redis.guard(() => this.redis.run(FENCED_WRITE, [this.keys[kind], this.fenceKey], args));
    if (written !== 1) throw new FencedWriteError(token);
  }

  private onChanged(message: string): void {
    const [origin, kind, id] = message.split('|');
    if (origin === this.redis.replicaId || id === undefined) return; // our own write is already local
    if (kind === 'market') this.markets.invalidate(id);
    else if (kind === 'book') this.books.invalidate(id);
    else if (kind === 'health') this.health.invalidate(ALL_SOURCES);
    else if (kind === 'listing') for (const listener of this.listingListeners) listener(id);
    else return;
    // After the invalidation, in the same turn: an answer rendered from what it invalidated, under
    // the version read before its data, is no longer current once it finishes.
    this.changes += 1;
  }
}

function parse<T>(raw: string | null | undefined): T | undefined {
  return raw == null ? undefined : (JSON.parse(raw) as T);
}

function bySourceId(list: SourceHealth[]): SourceHealth[] {
  return list.sort((a, b) => (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0));
}
