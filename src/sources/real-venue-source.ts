import type { Logger } from 'pino';
import type { MarketDefinition } from '../domain/market.js';
import { BackfillQueue } from './backfill-queue.js';
import type { UpstreamReport } from './market-data-source.js';
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

  constructor(
    readonly id: string,
    readonly pollIntervalMs: number,
    protected readonly budget: RequestBudget,
    private readonly upstreamHealth: { report(streamClosedForMs: number): UpstreamReport },
    protected readonly logger: Logger,
  ) {}

  /** The markets listed now (the venue's list moves with its listings and delistings, seen at each poll). */
  markets(): readonly MarketDefinition[] {
    return this.listed;
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

  /** The history backfill (made once, by `warm`), following the listed markets. */
  protected backfillWith(warm: () => (market: MarketDefinition) => Promise<void>, refreshMs: number): void {
    this.history ??= new BackfillQueue(warm(), this.logger, refreshMs);
    this.history.track(this.listed);
  }
}
