import { describe, expect, it } from 'vitest';
import type { ExecutionStores } from '../../src/execution/execution-stores.js';

const T0 = 1_800_000_000_000;

/** A clock the test moves, as the app's manual clock does. */
export class MovingClock {
  constructor(public at = T0) {}
  readonly now = () => this.at;
  advance(ms: number): void {
    this.at += ms;
  }
}

/**
 * Expiry on the app clock, for stores that keep their own (memory, SQLite): a record past its
 * ttl counts as absent, exactly as an expired Redis key does (Redis expires on its own clock).
 */
export function expiringStoresContract(name: string, make: (now: () => number) => Promise<ExecutionStores>) {
  describe(`expiring stores contract: ${name}`, () => {
    it('idempotency: a claim holds until its ttl, then the key is free; complete renews the ttl', async () => {
      const clock = new MovingClock();
      const { idempotency } = await make(clock.now);
      expect(await idempotency.claim('k', 'fp', 1_000)).toEqual({ claimed: true });
      clock.advance(999);
      expect(await idempotency.claim('k', 'other', 1_000)).toEqual({ claimed: false, fingerprint: 'fp', value: null });
      clock.advance(1);
      expect(await idempotency.get('k')).toBeUndefined();
      expect(await idempotency.claim('k', 'other', 1_000)).toEqual({ claimed: true });
      await idempotency.complete('k', 'other', 'done', 5_000);
      clock.advance(4_999);
      expect(await idempotency.get('k')).toEqual({ fingerprint: 'other', value: 'done' });
      clock.advance(1);
      expect(await idempotency.claim('k', 'third', 1_000)).toEqual({ claimed: true });
    });

    it('wallet sessions: nonces and sessions vanish at their ttl', async () => {
      const clock = new MovingClock();
      const { walletSessions } = await make(clock.now);
      await walletSessions.putNonce('n1', 1_000);
      await walletSessions.putNonce('n2', 1_000);
      expect(await walletSessions.consumeNonce('n1')).toBe(true);
      clock.advance(1_000);
      expect(await walletSessions.consumeNonce('n2')).toBe(false);
      const s = { accountId: 'acct', wallet: '0x1', createdAt: clock.at, expiresAt: clock.at + 2_000 };
      await walletSessions.putSession('h', s, 2_000);
      clock.advance(1_999);
      expect(await walletSessions.getSession('h')).toEqual(s);
      clock.advance(1);
      expect(await walletSessions.getSession('h')).toBeUndefined();
    });

    it('agent spend: the period counter starts again once its ttl has passed', async () => {
      const clock = new MovingClock();
      const { agentSessions } = await make(clock.now);
      expect(await agentSessions.addSpend('s', T0, '80', '100', 1_000)).toEqual({ ok: true, spent: '80' });
      clock.advance(999);
      expect(await agentSessions.addSpend('s', T0, '30', '100', 1_000)).toEqual({ ok: false, spent: '80' });
      clock.advance(1);
      expect(await agentSessions.addSpend('s', T0, '30', '100', 1_000)).toEqual({ ok: true, spent: '30' });
    });
  });
}
