import type { Spending } from './spending-ledger.js';

/** A poll keeps the served data current; background work (history) fills in behind it. */
export type RequestPriority = 'poll' | 'background';

interface Waiting {
  weight: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

const WINDOW_MS = 60_000;

/**
 * A venue's request weight per sliding minute, spent deliberately: a request waits until its
 * weight fits (never sent over the budget), and a 429's Retry-After pauses every request until
 * it has passed (never a retry storm). Polls go first and may use the whole budget; background
 * requests wait while a poll waits, and keep `reservedForPolls` free, so a long history backfill
 * never delays the data being served. Each priority is served in order. On the machine's clock:
 * it measures what the venue sees.
 */
export class RequestBudget {
  /** The minute's spending, oldest first; `charged`: sent by others at once (charge), which the polls do not wait for. */
  private readonly spent: { at: number; weight: number; charged?: boolean }[] = [];
  private readonly waiting: Record<RequestPriority, Waiting[]> = { poll: [], background: [] };
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Told of each request let through (the fleet's spending ledger, once this replica leads). */
  onSpend: ((spending: Spending) => void) | undefined;

  constructor(
    readonly perMinute: number,
    private readonly options: { reservedForPolls?: number; now?: () => number } = {},
  ) {
    if (!(perMinute > 0)) throw new Error('a request budget needs a positive weight per minute');
    if ((options.reservedForPolls ?? 0) >= perMinute) throw new Error('a request budget must leave background requests some weight');
  }

  /** Waits until `weight` fits in the minute (within its priority's share) and any pause has passed, then counts it as spent. */
  take(weight: number, priority: RequestPriority = 'poll'): Promise<void> {
    if (this.closed) return Promise.reject(new Error('request budget closed'));
    return new Promise((resolve, reject) => {
      this.waiting[priority].push({ weight: Math.min(weight, this.ceiling(priority)), resolve, reject });
      this.serve();
    });
  }

  /**
   * Counts `weight` as spent now without waiting: a request the venue counts against the same
   * limit but that must not queue behind the data (an order, a look-up of one). Background
   * requests then wait for the room it took; polls do not (they keep the served data current,
   * and their share of the minute stays theirs). Nothing once closed.
   */
  charge(weight: number): void {
    if (this.closed || !(weight > 0)) return;
    const at = this.now();
    this.spent.push({ at, weight, charged: true });
    this.onSpend?.({ at, weight });
    this.serve();
  }

  /** Weight charged by others (charge) in the last minute. */
  chargedLastMinute(): number {
    this.expire(this.now());
    return this.used((s) => s.charged === true);
  }

  /** Counts what another replica sent in the last minute (a new leader starts from the fleet's spending). */
  restore(spent: readonly Spending[]): void {
    const now = this.now();
    const known = new Set(this.spent.map((s) => `${s.at}:${s.weight}`));
    for (const s of spent) if (s.at > now - WINDOW_MS && s.at <= now && !known.has(`${s.at}:${s.weight}`)) this.spent.push({ at: s.at, weight: s.weight });
    this.spent.sort((a, b) => a.at - b.at);
    this.serve();
  }

  /** The venue asked to wait (429 with Retry-After): nothing is sent before `until`. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.serve();
  }

  /** Weight spent in the last minute. */
  spentLastMinute(): number {
    this.expire(this.now());
    return this.used(() => true);
  }

  /** Stops waiting: every pending and later `take` rejects. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    const waiting = [...this.waiting.poll.splice(0), ...this.waiting.background.splice(0)];
    for (const w of waiting) w.reject(new Error('request budget closed'));
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The most a priority may have spent in the minute: polls the whole budget, background what the polls leave. */
  private ceiling(priority: RequestPriority): number {
    return priority === 'poll' ? this.perMinute : this.perMinute - (this.options.reservedForPolls ?? 0);
  }

  /** Lets through every request that fits, polls first; then sleeps until the first waiting one can. */
  private serve(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    for (;;) {
      const priority: RequestPriority = this.waiting.poll.length > 0 ? 'poll' : 'background';
      const next = this.waiting[priority][0];
      if (!next) return;
      const now = this.now();
      this.expire(now);
      const wakeAt = now < this.pausedUntil ? this.pausedUntil : this.fitsAt(next.weight, priority, now);
      if (wakeAt > now) {
        this.timer = setTimeout(() => this.serve(), Math.max(5, wakeAt - now));
        this.timer.unref();
        return;
      }
      this.waiting[priority].shift();
      const spending = { at: now, weight: next.weight };
      this.spent.push(spending);
      this.onSpend?.(spending);
      next.resolve();
    }
  }

  /** When `weight` more fits under `priority`'s ceiling: now, or once enough of the minute's spending (what it counts) has left the window. */
  private fitsAt(weight: number, priority: RequestPriority, now: number): number {
    const ceiling = this.ceiling(priority);
    const counts = priority === 'poll' ? (s: { charged?: boolean }) => !s.charged : () => true;
    let used = this.used(counts);
    if (used + weight <= ceiling) return now;
    for (const s of this.spent) {
      if (!counts(s)) continue;
      used -= s.weight;
      if (used + weight <= ceiling) return s.at + WINDOW_MS;
    }
    return now;
  }

  private used(counts: (s: { charged?: boolean }) => boolean): number {
    let sum = 0;
    for (const s of this.spent) if (counts(s)) sum += s.weight;
    return sum;
  }

  private expire(now: number): void {
    while (this.spent.length > 0 && this.spent[0]!.at <= now - WINDOW_MS) this.spent.shift();
  }
}
