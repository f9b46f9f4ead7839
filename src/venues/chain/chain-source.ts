import type { PublicClient } from 'viem';
import { Decimal } from '../../domain/decimal.js';
import { NO_KIND_FIGURES, type MarketDefinition, type MarketQuote } from '../../domain/market.js';
import type { HistoryStores, MarketDataSource, SourceReading, UpstreamReport } from '../../sources/market-data-source.js';
import { storedDay } from '../../sources/stored-day.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { ChainRpc, describeFailure } from './chain-rpc.js';
import type { ChainSettings } from './chain-settings.js';

/** One market as read at a block: its definition, its price, and its venue's own figures. */
export interface ChainMarket {
  market: MarketDefinition;
  price: string;
  figures: Partial<Pick<MarketQuote, 'supplyApy' | 'borrowApy' | 'utilization' | 'liquidity'>>;
}

/** What a venue read at one block; a market whose calls failed is left out and named in `problems`. */
export interface ChainRead {
  markets: ChainMarket[];
  problems: string[];
}

/** A venue's contract reads, made at the block the source names (all of them at the same one). */
export interface ChainReader {
  /**
   * Once the chain id is right: that the configured contracts are what the venue expects on it,
   * throwing {@link Misconfigured} when they are not.
   */
  verify?(client: PublicClient): Promise<void>;
  read(client: PublicClient, blockNumber: bigint): Promise<ChainRead>;
}

/** The RPC or a configured contract is not what the venue was configured for: down at once, never served. */
export class Misconfigured extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Misconfigured';
  }
}

/** Failed polls in a row before the venue counts as down (one when misconfigured). */
const FAILURES_BEFORE_DOWN = 3;
/** How often the chain id (and the reader's contracts) are checked again: a node behind a load balancer can change. */
const RECHECK_MS = 10 * 60_000;

/**
 * A venue read from a chain by JSON-RPC: each poll reads the latest block, then (when it is a new
 * one) every call at that block, so all figures are of one block and the block's timestamp is
 * their time (`sourceTime`, freshness `asOf`), never the time the gateway received them. An
 * unchanged block is served again without a call. The RPC's chain id is checked before anything
 * is read, and again every ten minutes: a wrong chain is reported down with its reason, never
 * served. A failed poll is degraded, three in a row down; a slow one (an answer that took more
 * than half the timeout) or a partial one (a market left out) is degraded, saying why.
 * Candles are sampled from the observed prices by ingest, as the simulators' are (the chain
 * keeps no candles); the 24 h high, low and change come from them once 24 h are stored.
 */
export class ChainSource implements MarketDataSource {
  readonly pollIntervalMs: number;
  private readonly rpc: ChainRpc;
  private listed: MarketDefinition[] = [];
  private checkedAt = -Infinity;
  private misconfigured: string | null = null;
  private last: { block: bigint; read: ChainRead } | undefined;
  private inFlight: Promise<SourceReading> | undefined;
  private stores: HistoryStores | undefined;

  constructor(
    readonly id: string,
    private readonly settings: ChainSettings,
    private readonly reader: ChainReader,
    upstream: UpstreamObserver,
  ) {
    this.pollIntervalMs = settings.pollMs;
    this.rpc = new ChainRpc(id, settings, upstream);
  }

  get failuresBeforeDown(): number {
    return this.misconfigured === null ? FAILURES_BEFORE_DOWN : 1;
  }

  markets(): readonly MarketDefinition[] {
    return this.listed;
  }

  /** A poll still waiting for the budget or the node when the next is due is shared, not doubled. */
  read(): Promise<SourceReading> {
    this.inFlight ??= this.poll().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Nothing to fetch (the chain keeps no history): the stores give the 24 h figures of the observed prices. */
  async backfillHistory(stores: HistoryStores): Promise<void> {
    this.stores = stores;
  }

  upstream(): UpstreamReport {
    const report = this.rpc.report();
    return this.misconfigured === null ? report : { ...report, status: 'down', reason: this.misconfigured };
  }

  close(): void {
    this.rpc.close();
  }

  private async poll(): Promise<SourceReading> {
    this.rpc.takeSlowestMs();
    try {
      await this.check();
      const block = await this.rpc.client.getBlock({ blockTag: 'latest' });
      if (this.last?.block !== block.number) this.last = { block: block.number, read: await this.reader.read(this.rpc.client, block.number) };
      const { markets, problems } = this.last.read;
      // Nothing could be read: a failed poll, not a partial one.
      if (markets.length === 0 && problems.length > 0) throw new Error(problems.join('; '));
      const time = Number(block.timestamp) * 1_000;
      this.listed = markets.map((m) => m.market);
      const quotes = await Promise.all(markets.map((m) => this.quoteOf(m, time)));
      const slowest = this.rpc.takeSlowestMs();
      const reasons = slowest > this.settings.timeoutMs / 2 ? [...problems, `slow: the node took ${slowest} ms to answer`] : problems;
      return { quotes, books: [], degraded: reasons.length > 0, ...(reasons.length > 0 ? { degradedReason: reasons.join('; ') } : {}) };
    } catch (err) {
      if (err instanceof Misconfigured) {
        this.misconfigured = err.message;
        throw err;
      }
      throw new Error(describeFailure(err, this.settings.rpcUrl), { cause: err });
    }
  }

  /** The node's chain id, then the reader's contracts: before the first read, every ten minutes, and while misconfigured. */
  private async check(): Promise<void> {
    if (this.misconfigured === null && Date.now() - this.checkedAt < RECHECK_MS) return;
    const chainId = await this.rpc.client.getChainId();
    if (chainId !== this.settings.chainId) {
      throw new Misconfigured(`the RPC node serves chain ${chainId}, not the configured chain ${this.settings.chainId}: its data is refused`);
    }
    await this.reader.verify?.(this.rpc.client);
    this.misconfigured = null;
    this.checkedAt = Date.now();
  }

  private async quoteOf(m: ChainMarket, time: number): Promise<MarketQuote> {
    const day = this.stores && (await storedDay(this.stores.candles, m.market.id, time));
    return {
      marketId: m.market.id,
      price: m.price,
      change24hPct: day && !new Decimal(day.open).isZero() ? new Decimal(m.price).minus(day.open).div(day.open).mul(100).toFixed(4) : '0',
      high24h: day ? day.high : null,
      low24h: day ? day.low : null,
      // Traded volume is in the pools' Swap logs, which a poll does not scan: none is claimed.
      volume24h: '0',
      ...NO_KIND_FIGURES,
      ...m.figures,
      volumeDelta: '0',
      sourceTime: time,
    };
  }
}
