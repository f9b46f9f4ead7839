import type { Logger } from 'pino';
import type { MarketDefinition } from '../domain/market.js';
import { BackfillQueue } from './backfill-queue.js';
import type { HistoryStores, UpstreamReport } from './market-data-source.js';
import type { RequestBudget } from './request-budget.js';

/** A real venue's stream as its source runs it. */
export interface VenueStream {
  start(symbols: readonly string[]): void;
  stop(): void;
  /** Milliseconds it has been closed (0 while open). */
  closedFor(): number;
}

/**
 * What every real venue's source shares: its own candles (streamed and fetched, never sampled),
 * down after three failed polls, a catalogue that moves with the venue's, one stream at a time,
 * the history backfill queue, and the upstream's health within its budget (a stream closed for
 * over a minute is down). A venue adds its polls, its stream's listener and its history fetch.
 */
export abstract class RealVenueSource<S extends VenueStream = VenueStream> {
  readonly venueCandles = true;
  readonly failuresBeforeDown = 3;
  protected listed: MarketDefinition[] = [];
  protected live: S | undefined;
  protected history: BackfillQueue | undefined;
  /** Where this replica writes while it leads (set by backfillHistory). */
  protected stores: HistoryStores | undefined;

  constructor(
    readonly id: string,
    readonly pollIntervalMs: number,
    protected readonly budget: RequestBudget,
    private readonly upstreamHealth: { report(streamClosedForMs: number): UpstreamReport },
    protected readonly logger: Logger,
  ) {
    // What this replica sends, for the fleet's ledger (a later leader, or this gateway restarted, starts from it).
    budget.onSpend = (spending) => void this.stores?.spending?.spend(id, spending).catch(() => undefined);
  }

  /** The markets listed now (the venue's list moves with its listings and delistings, seen at each poll). */
  markets(): readonly MarketDefinition[] {
    return this.listed;
  }

  /** Another replica leads now: the backfill stops (it resumes from what is stored when this one leads again). */
  standDown(): void {
    this.history?.stop();
    this.history = undefined;
  }

  historyPending(marketId: string): boolean {
    return this.history?.askFor(marketId) ?? false;
  }

  upstream(): UpstreamReport {
    return this.upstreamHealth.report(this.live?.closedFor() ?? 0);
  }

  close(): void {
    this.history?.stop();
    this.live?.stop();
    this.budget.close();
  }

  /** Runs `stream` on the listed markets' assets; the returned function stops it. */
  protected runStream(stream: S): () => void {
    this.live = stream;
    stream.start(this.listed.map((m) => m.asset));
    return () => {
      stream.stop();
      if (this.live === stream) this.live = undefined;
    };
  }

  /**
   * Leading: the stores to write, the budget started from what the fleet sent the venue in the
   * last minute (the machine's clock, as the budget's), then the history backfill (made by `warm`
   * once per leadership), following the listed markets.
   */
  protected async leadWith(stores: HistoryStores, warm: () => (market: MarketDefinition) => Promise<void>, refreshMs: number): Promise<void> {
    this.stores = stores;
    if (stores.spending) this.budget.restore(await stores.spending.recent(this.id, Date.now() - 60_000));
    this.history ??= new BackfillQueue(warm(), this.logger, refreshMs);
    this.history.track(this.listed);
  }

  /**
   * Whether a market's streamed candles must wait: its history has not been fetched yet this
   * leadership (a streamed minute written first would make the backfill resume from now).
   */
  protected historyCold(marketId: string): boolean {
    return this.history?.isCold(marketId) ?? true;
  }
}
