import type { HyperliquidReplayControls } from './controls.js';

/** How often the venue's streams move at speed 1: mids every second, each subscribed book every two, candles every five. */
const TICK_MS = 1_000;
const BOOK_EVERY_TICKS = 2;
const CANDLE_EVERY_TICKS = 5;

/**
 * Plays the fake venue's streams for GATEWAY_REPLAY: mids move and are pushed, the books and
 * minute candles subscribers asked for are pushed, at `speed` times the pace above. The moves are
 * the fake's deterministic ones, anchored on the recordings, so a replay is a repeatable demo.
 */
export class ReplayPlayer {
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;

  constructor(
    private readonly controls: HyperliquidReplayControls,
    private readonly speed: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), Math.max(20, Math.round(TICK_MS / this.speed)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    this.ticks += 1;
    this.controls.pushAllMids();
    const subscribed = this.controls.wsSubscriptions().map((s) => s.subscription);
    if (this.ticks % BOOK_EVERY_TICKS === 0) {
      for (const coin of new Set(subscribed.filter((s) => s.type === 'l2Book').map((s) => String(s.coin)))) this.controls.pushL2Book(coin);
    }
    if (this.ticks % CANDLE_EVERY_TICKS === 0) {
      for (const coin of new Set(subscribed.filter((s) => s.type === 'candle' && s.interval === '1m').map((s) => String(s.coin)))) {
        this.controls.pushCandle(coin, '1m');
      }
    }
  }
}
