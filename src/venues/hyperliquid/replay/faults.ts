/** An injected HTTP fault, answered instead of the venue's answer. */
export type HttpFault =
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'serverError'; status: number; body: string }
  | { kind: 'hang' }
  | { kind: 'malformedJson' }
  | { kind: 'wrongContentType'; contentType: string; body: string };

/** Which requests a fault applies to: a path (`/info`, `/exchange`) and/or a body type; all when empty. */
export interface FaultFilter {
  path?: string;
  type?: string;
}

interface Queued {
  fault: HttpFault;
  remaining: number;
  filter: FaultFilter;
}

/** Faults waiting for the next matching requests, first queued first served. */
export class FaultQueue {
  private readonly queue: Queued[] = [];

  add(fault: HttpFault, times: number, filter: FaultFilter = {}): void {
    if (times > 0) this.queue.push({ fault, remaining: times, filter });
  }

  clear(): void {
    this.queue.length = 0;
  }

  pending(): number {
    return this.queue.reduce((sum, q) => sum + q.remaining, 0);
  }

  /** The fault for this request, if one is due (consuming one of its repetitions). */
  take(path: string, type: string | undefined): HttpFault | undefined {
    const index = this.queue.findIndex(
      (q) => (q.filter.path === undefined || q.filter.path === path) && (q.filter.type === undefined || q.filter.type === type),
    );
    const queued = this.queue[index];
    if (!queued) return undefined;
    queued.remaining--;
    if (queued.remaining <= 0) this.queue.splice(index, 1);
    return queued.fault;
  }
}
