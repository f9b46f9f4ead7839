import { describe, expect, it } from 'vitest';
import type { RateLimiter, RatePolicy } from '../../src/rate-limit/rate-limiter.js';

/** The behaviour every RateLimiter must have; `make` gives a fresh limiter (its own counters). */
export function rateLimiterContract(name: string, make: () => Promise<RateLimiter>) {
  describe(`RateLimiter contract: ${name}`, () => {
    const policy: RatePolicy = { name: 'contract', points: 3, windowSeconds: 60 };

    it('allows the policy points per bucket and window, then refuses with the time to reset', async () => {
      const limiter = await make();
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(policy, 'client-1'));
      expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(decisions[3]!.policy).toEqual(policy);
      expect(decisions[3]!.resetSeconds).toBeGreaterThan(0);
      expect(decisions[3]!.resetSeconds).toBeLessThanOrEqual(60);
    });

    it('counts buckets and policies apart', async () => {
      const limiter = await make();
      for (let i = 0; i < 3; i++) await limiter.consume(policy, 'client-2');
      expect((await limiter.consume(policy, 'client-2')).allowed).toBe(false);
      expect((await limiter.consume(policy, 'client-3')).allowed).toBe(true);
      expect((await limiter.consume({ ...policy, name: 'other' }, 'client-2')).allowed).toBe(true);
    });
  });
}
