/**
 * The venue's clock: its time (the machine's, shifted by a settable offset to model a venue clock
 * far behind or ahead) and whether the market is open (forced either way, or `auto` from New York
 * weekday 09:30–16:00). Answers `GET /v2/clock` and `GET /v3/clock` from it.
 */
import { formatNewYork, isRegularSessionOpen, nextSessionBounds } from './venue-time.js';

export type MarketOpenSetting = boolean | 'auto';

export class VenueClock {
  private offsetMs = 0;

  constructor(private openSetting: MarketOpenSetting) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  isOpen(): boolean {
    return this.openSetting === 'auto' ? isRegularSessionOpen(this.now()) : this.openSetting;
  }

  /** Returns whether the market went from closed to open (the venue then routes queued orders). */
  setOpen(open: MarketOpenSetting): boolean {
    const before = this.isOpen();
    this.openSetting = open;
    return !before && this.isOpen();
  }

  /** Venue time = machine time + `ms` (negative: the venue is behind). */
  setOffset(ms: number): void {
    this.offsetMs = ms;
  }

  /** `GET /v2/clock`. */
  legacy(): { timestamp: string; is_open: boolean; next_open: string; next_close: string } {
    const now = this.now();
    const open = this.isOpen();
    const { nextOpen, nextClose } = nextSessionBounds(now, open);
    return { timestamp: formatNewYork(now, true), is_open: open, next_open: formatNewYork(nextOpen), next_close: formatNewYork(nextClose) };
  }

  /** `GET /v3/clock` (shape from the SDK's `ClockResp` model; only the NYSE, only phases core/closed). */
  v3(): { clocks: Array<Record<string, unknown>> } {
    const now = this.now();
    const open = this.isOpen();
    const { nextOpen, nextClose } = nextSessionBounds(now, open);
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short' }).format(now);
    return {
      clocks: [
        {
          market: { acronym: 'NYSE', mic: 'XNYS', name: 'New York Stock Exchange', timezone: 'America/New_York' },
          is_market_day: open || !['Sat', 'Sun'].includes(weekday),
          phase: open ? 'core' : 'closed',
          phase_until: formatNewYork(open ? nextClose : nextOpen),
          next_market_open: formatNewYork(nextOpen),
          next_market_close: formatNewYork(nextClose),
          timestamp: formatNewYork(now, true),
        },
      ],
    };
  }
}
