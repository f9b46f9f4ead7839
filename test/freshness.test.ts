import { describe, expect, it } from 'vitest';
import { combineFreshness, freshnessOf, MAX_AGE_MS } from '../src/domain/freshness.js';

describe('freshnessOf', () => {
  it('is stale exactly when older than the max age or when the source is down', () => {
    const asOf = 1_000_000;
    expect(freshnessOf(asOf, 'healthy', MAX_AGE_MS.default, asOf + 60_000)).toMatchObject({ stale: false, freshnessMs: 60_000 });
    expect(freshnessOf(asOf, 'healthy', MAX_AGE_MS.default, asOf + 60_001)).toMatchObject({ stale: true, staleReason: 'max_age_exceeded' });
    expect(freshnessOf(asOf, 'degraded', MAX_AGE_MS.orderBook, asOf + 5_000).stale).toBe(false);
    expect(freshnessOf(asOf, 'down', MAX_AGE_MS.default, asOf)).toMatchObject({ stale: true, staleReason: 'source_down' });
    expect(freshnessOf(asOf, 'healthy', 1, asOf - 50).freshnessMs).toBe(0);
  });

  it('combines as the oldest part, stale if any part is, with the worst source status', () => {
    const a = freshnessOf(0, 'healthy', 60_000, 10_000);
    const b = freshnessOf(5_000, 'degraded', 60_000, 10_000);
    const c = freshnessOf(9_000, 'down', 60_000, 10_000);
    expect(combineFreshness([a, b], a)).toMatchObject({ asOf: a.asOf, stale: false, sourceStatus: 'degraded' });
    expect(combineFreshness([a, c], a)).toMatchObject({ stale: true, staleReason: 'source_down', sourceStatus: 'down', freshnessMs: 10_000 });
  });
});
