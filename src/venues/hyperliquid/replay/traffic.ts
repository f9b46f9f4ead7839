/** What the fake received and what each request cost in Hyperliquid request weight. */

export type FaultKind = 'rateLimit' | 'serverError' | 'hang' | 'malformedJson' | 'wrongContentType' | 'weightLimit';

export interface RecordedRequest {
  seq: number;
  /** Machine time (ms) the request was read. */
  at: number;
  /** The venue's clock at that moment. */
  venueTime: number;
  method: string;
  path: string;
  contentType: string | undefined;
  /** The raw body text. */
  rawBody: string;
  /** The body parsed as JSON, or undefined when it was not JSON. */
  body: unknown;
  /** The info type (`body.type`) or exchange action type (`body.action.type`). */
  type: string | undefined;
  /** The status answered; undefined while (or because) the request hangs. */
  status: number | undefined;
  /** The injected fault that answered it, if any. */
  fault: FaultKind | undefined;
  /** Items the answer held (array length), for the per-item weight. */
  items: number;
  /** The Hyperliquid request weight charged: 0 for injected faults and for paths the venue has not got. */
  weight: number;
}

export interface MinuteTotals {
  /** Start of the minute (machine time, ms). */
  minute: number;
  requests: number;
  weight: number;
}

export class TrafficLog {
  private readonly entries: RecordedRequest[] = [];
  private seq = 0;

  add(entry: Omit<RecordedRequest, 'seq'>): RecordedRequest {
    const recorded = { ...entry, seq: ++this.seq };
    this.entries.push(recorded);
    return recorded;
  }

  all(): RecordedRequest[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Weight charged over the `windowMs` before `now` (machine time): the venue's sliding minute. */
  weightWithin(windowMs: number, now = Date.now()): number {
    let total = 0;
    for (const e of this.entries) if (e.at > now - windowMs && e.at <= now) total += e.weight;
    return total;
  }

  /** Requests and weight per calendar minute (machine time), oldest first. */
  perMinute(): MinuteTotals[] {
    const minutes = new Map<number, MinuteTotals>();
    for (const e of this.entries) {
      const minute = Math.floor(e.at / 60_000) * 60_000;
      const totals = minutes.get(minute) ?? { minute, requests: 0, weight: 0 };
      totals.requests++;
      totals.weight += e.weight;
      minutes.set(minute, totals);
    }
    return [...minutes.values()].sort((a, b) => a.minute - b.minute);
  }

  /** The machine time at which the weight within the last minute falls to `target` or below. */
  relief(target: number, now = Date.now()): number {
    const recent = this.entries.filter((e) => e.at > now - 60_000 && e.weight > 0).sort((a, b) => a.at - b.at);
    let total = recent.reduce((sum, e) => sum + e.weight, 0);
    for (const e of recent) {
      if (total <= target) break;
      total -= e.weight;
      if (total <= target) return e.at + 60_000;
    }
    return now;
  }
}
