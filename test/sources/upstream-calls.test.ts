import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '../../src/sources/request-budget.js';
import { StreamLiveness, UpstreamCalls, type UpstreamFailure } from '../../src/sources/upstream-calls.js';
import type { UpstreamObserver } from '../../src/sources/upstream-observer.js';

/** A real venue's requests and stream as its health report sees them, on a fake clock. */
describe('upstream calls and stream liveness', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  const counted: string[] = [];
  const observer: UpstreamObserver = {
    request: (venue, type, outcome) => void counted.push(`${venue}/${type}/${outcome}`),
    reconnect: (v) => void counted.push(`${v}/reconnect`),
    ingested: () => undefined,
  };
  beforeEach(() => void counted.splice(0));
  const failing = (failure: UpstreamFailure) => () => Promise.reject(Object.assign(new Error('raw'), { failure }));
  const classify = (err: unknown) => (err as { failure: UpstreamFailure }).failure;

  it('counts outcomes, says the latest failure in its own words, and a 429 pauses every request by its Retry-After', async () => {
    const budget = new RequestBudget(100);
    const calls = new UpstreamCalls('v', budget, observer, classify);
    expect(await calls.call('a', 1, 'poll', () => Promise.resolve(7))).toBe(7);
    await expect(calls.call('a', 1, 'poll', failing({ outcome: '5xx', reason: '503' }))).rejects.toThrow('a: 503');
    expect(calls.report()).toMatchObject({ status: 'degraded', reason: 'a: 503', weightLastMinute: 2, budgetPerMinute: 100 });
    await expect(calls.call('b', 1, 'poll', failing({ outcome: '429', reason: '429', retryAfterMs: 3_000 }))).rejects.toThrow('b: 429');
    expect(calls.report()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/429/) });
    let sent = false;
    const next = calls.call('c', 1, 'background', () => Promise.resolve((sent = true)));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await next;
    expect(sent).toBe(true);
    expect(calls.report()).toMatchObject({ status: 'healthy', reason: null });
    expect(counted).toEqual(['v/a/200', 'v/a/5xx', 'v/b/429', 'v/c/200']);
  });

  it('a stream closed for more than a minute is down; an open after the first counts a reconnect', async () => {
    const calls = new UpstreamCalls('v', new RequestBudget(100), observer, classify);
    const stream = new StreamLiveness('v', observer);
    stream.starting();
    stream.open();
    stream.closed();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.report(stream.closedFor()).status).toBe('healthy');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.report(stream.closedFor())).toMatchObject({ status: 'down', reason: "the venue's stream has been closed for 61 s" });
    stream.open();
    expect(stream.closedFor()).toBe(0);
    expect(counted).toEqual(['v/reconnect']);
  });
});
