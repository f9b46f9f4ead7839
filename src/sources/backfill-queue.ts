import type { Logger } from 'pino';
import type { MarketDefinition } from '../domain/market.js';

/** A market whose history could not be fetched goes to the back of the queue, after this pause. */
const RETRY_PAUSE_MS = 1_000;

/**
 * A real venue's history fetched market by market in the background (`warm` within the venue's
 * budget): every market seen is queued once, a market someone asked for goes to the front, a
 * failure goes to the back (the budget and the venue's health decide when it is tried again), and
 * every `refreshMs` all markets are queued again (their newest candles, a new settlement).
 */
export class BackfillQueue {
  private readonly queue: MarketDefinition[] = [];
  private readonly pending = new Set<string>();
  private readonly known = new Map<string, MarketDefinition>();
  /** Markets whose history was fetched at least once since this queue started. */
  private readonly warmed = new Set<string>();
  private refresh: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;

  constructor(
    private readonly warm: (market: MarketDefinition) => Promise<void>,
    private readonly logger: Logger,
    private readonly refreshMs: number,
  ) {}

  /** Every market the venue lists: a market seen for the first time is queued (resuming from what is stored). */
  track(markets: readonly MarketDefinition[]): void {
    const unknown = markets.filter((m) => !this.known.has(m.id));
    for (const m of unknown) this.known.set(m.id, m);
    this.enqueue(unknown);
    this.refresh ??= setInterval(() => this.enqueue([...this.known.values()]), this.refreshMs);
    this.refresh.unref();
  }

  /** Whether a market someone asked for is still to be fetched; if so, it is fetched next. */
  askFor(marketId: string): boolean {
    if (!this.pending.has(marketId)) return false;
    const at = this.queue.findIndex((m) => m.id === marketId);
    if (at > 0) this.queue.unshift(...this.queue.splice(at, 1));
    return true;
  }

  /**
   * Whether a market's history has not been fetched yet since this queue started. Its streamed
   * candles wait until it has: written first, they would make the backfill resume from now.
   */
  isCold(marketId: string): boolean {
    return !this.warmed.has(marketId);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.refresh);
  }

  private enqueue(markets: readonly MarketDefinition[]): void {
    for (const m of markets) {
      if (this.pending.has(m.id)) continue;
      this.pending.add(m.id);
      this.queue.push(m);
    }
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let market = this.queue.shift(); market && !this.stopped; market = this.queue.shift()) {
        try {
          await this.warm(market);
          this.pending.delete(market.id);
          this.warmed.add(market.id);
        } catch (err) {
          this.logger.warn({ market: market.id, err: err instanceof Error ? err.message : String(err) }, 'venue history not fetched; will retry');
          this.queue.push(market);
          await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS).unref());
        }
      }
    } finally {
      this.running = false;
    }
  }
}
