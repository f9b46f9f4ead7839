/**
 * Fault injection for the fake's HTTP APIs: a list of armed faults, each for one API (or both),
 * optionally one method and path, for the next N matching requests. The HTTP layer asks
 * {@link FaultBook.take} before it answers a request and acts the fault out instead.
 */

export type ApiName = 'trading' | 'data';

export type FaultSpec =
  /** Answer this status with this JSON body and headers (429, 500, 503, …). */
  | { kind: 'status'; status: number; body: unknown; headers?: Record<string, string> }
  /** Answer these exact bytes with this content type (malformed JSON, an HTML error page, …). */
  | { kind: 'raw'; status: number; contentType: string; body: string }
  /** Never answer; the socket stays open until the client gives up or the fake closes. */
  | { kind: 'hang' }
  /** Destroy the connection without an answer (the client sees a network error). */
  | { kind: 'reset' }
  /** Run the request (an order is booked and published) but never answer it. */
  | { kind: 'accept-then-hang' };

/** Which requests an armed fault applies to. */
export interface FaultTarget {
  /** `trading`, `data` or both (default). */
  api?: ApiName | 'any';
  /** Upper-case HTTP method; any when omitted. */
  method?: string;
  /** Exact path or a pattern tested against it; any when omitted. */
  path?: string | RegExp;
  /** How many matching requests the fault applies to (default 1). */
  times?: number;
}

interface Armed {
  api: ApiName | 'any';
  method: string | undefined;
  path: string | RegExp | undefined;
  remaining: number;
  spec: FaultSpec;
}

export class FaultBook {
  private armed: Armed[] = [];

  arm(target: FaultTarget, spec: FaultSpec): void {
    this.armed.push({ api: target.api ?? 'any', method: target.method?.toUpperCase(), path: target.path, remaining: target.times ?? 1, spec });
  }

  /** The first armed fault matching this request (and uses one of its times), or undefined. */
  take(api: ApiName, method: string, path: string): FaultSpec | undefined {
    const index = this.armed.findIndex(
      (a) =>
        (a.api === 'any' || a.api === api) &&
        (a.method === undefined || a.method === method) &&
        (a.path === undefined || (typeof a.path === 'string' ? a.path === path : a.path.test(path))),
    );
    const found = this.armed[index];
    if (!found) return undefined;
    found.remaining -= 1;
    if (found.remaining <= 0) this.armed.splice(index, 1);
    return found.spec;
  }

  clear(): void {
    this.armed = [];
  }

  get pending(): number {
    return this.armed.reduce((n, a) => n + a.remaining, 0);
  }
}
