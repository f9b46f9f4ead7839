import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/execution/audit-chain.js';
import type { AgentSession, Approval, Execution } from '../../src/execution/execution-types.js';
import type { ExecutionStores } from '../../src/execution/execution-stores.js';
import { positionOf, type ListQuery } from '../../src/execution/record-listing.js';

const NOW = 1_800_000_000_000;

const approval = (id: string, over: Partial<Approval> = {}): Approval => ({
  id,
  accountId: 'acct',
  wallet: '0x1111111111111111111111111111111111111111',
  instructionHash: 'hash-1',
  instruction: { referenceId: 'r' },
  state: 'pending',
  createdAt: NOW,
  expiresAt: NOW + 60_000,
  decidedAt: null,
  consumedAt: null,
  executionId: null,
  ...over,
});

const execution = (id: string, referenceId: string): Execution => ({
  id,
  accountId: 'acct',
  referenceId,
  instructionHash: 'h',
  protocol: 'paper-perps',
  action: 'place_order',
  state: 'accepted',
  principal: { kind: 'api_key', id: 'k' },
  approvalId: null,
  agentSessionId: null,
  fill: null,
  reason: null,
  createdAt: NOW,
  updatedAt: NOW,
  history: [{ state: 'accepted', at: NOW, reason: null }],
});

const session = (id: string): AgentSession => ({
  id,
  accountId: 'acct',
  apiKeyId: 'k',
  protocols: ['paper-perps'],
  actions: ['place_order'],
  assets: ['BTC'],
  maxOrderNotional: '100',
  maxPeriodNotional: '250.50',
  periodSeconds: 3600,
  startsAt: NOW,
  expiresAt: NOW + 3_600_000,
  revokedAt: null,
  createdAt: NOW,
});

/** The behaviour every execution-store implementation must have, races included. */
export function executionStoresContract(name: string, make: () => Promise<ExecutionStores>) {
  describe(`execution stores contract: ${name}`, () => {
    it('idempotency: one claim wins among concurrent claimers; holders see fingerprint and value; release needs the fingerprint', async () => {
      const { idempotency } = await make();
      const results = await Promise.all(Array.from({ length: 25 }, () => idempotency.claim('k1', 'fp', 60_000)));
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      expect(results.find((r) => !r.claimed)).toEqual({ claimed: false, fingerprint: 'fp', value: null });
      await idempotency.complete('k1', 'fp', 'result', 60_000);
      expect(await idempotency.claim('k1', 'other', 60_000)).toEqual({ claimed: false, fingerprint: 'fp', value: 'result' });
      expect(await idempotency.get('k1')).toEqual({ fingerprint: 'fp', value: 'result' });
      await idempotency.release('k1', 'other');
      expect(await idempotency.get('k1')).toBeDefined();
      await idempotency.release('k1', 'fp');
      expect(await idempotency.get('k1')).toBeUndefined();
    });

    it('approvals: decided once while pending, consumed exactly once and only for the same hash', async () => {
      const { approvals } = await make();
      await approvals.create(approval('a1'));
      expect(await approvals.consume('a1', 'hash-1', 'e0', NOW)).toBe('not_approved');
      const decided = await Promise.all([approvals.decide('a1', 'approved', NOW), approvals.decide('a1', 'rejected', NOW)]);
      expect(decided.filter(Boolean)).toHaveLength(1);
      const state = (await approvals.get('a1'))!.state;
      if (state !== 'approved') return; // the rejection won the race; consumption is covered below
      expect(await approvals.consume('a1', 'hash-2', 'e0', NOW)).toBe('hash_mismatch');
      expect(await approvals.consume('a1', 'hash-1', 'e0', NOW + 60_000)).toBe('expired');
      const outcomes = await Promise.all(Array.from({ length: 25 }, (_, i) => approvals.consume('a1', 'hash-1', `e${i}`, NOW)));
      expect(outcomes.filter((o) => o === 'consumed')).toHaveLength(1);
      expect((await approvals.get('a1'))!).toMatchObject({ state: 'consumed', consumedAt: NOW });
      expect(await approvals.consume('missing', 'hash-1', 'e', NOW)).toBe('not_found');
    });

    it('approvals: an expired pending approval cannot be decided', async () => {
      const { approvals } = await make();
      await approvals.create(approval('a2', { expiresAt: NOW }));
      expect(await approvals.decide('a2', 'approved', NOW)).toBeUndefined();
    });

    it('executions: stored, updated and found by account and referenceId', async () => {
      const { executions } = await make();
      const e = execution('e1', 'ref-1');
      await executions.create(e);
      await executions.update({ ...e, state: 'filled' });
      expect((await executions.get('e1'))!.state).toBe('filled');
      expect((await executions.findByReference('acct', 'ref-1'))!.id).toBe('e1');
      expect(await executions.findByReference('other', 'ref-1')).toBeUndefined();
    });

    it('executions: listed newest first in pages from a position, with state, protocol, reference prefix and time filters', async () => {
      const { executions } = await make();
      const account = `list-${Math.random().toString(36).slice(2)}`;
      const all: Execution[] = [];
      for (let i = 0; i < 60; i++) {
        // Pairs share a creation time, so ties are ordered by id.
        const e: Execution = {
          ...execution(`e-${String(i).padStart(3, '0')}`, `${i % 3 === 0 ? 'hedge' : 'ord'}-${i}`),
          accountId: account,
          createdAt: NOW + Math.floor(i / 2) * 1000,
          state: i % 2 === 0 ? 'filled' : 'rejected',
          protocol: i % 4 === 0 ? 'paper-swap' : 'paper-perps',
        };
        all.push(e);
        await executions.create(e);
      }
      await executions.create({ ...execution('other-1', 'ord-x'), accountId: `${account}-other` });
      const expected = (keep: (e: Execution) => boolean) =>
        all
          .filter(keep)
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
          .map((e) => e.id);
      const pages = async (q: Omit<ListQuery, 'limit' | 'now'>, limit: number) => {
        const ids: string[] = [];
        let after: ListQuery['after'];
        for (let n = 0; n < 100; n++) {
          const page = await executions.list(account, { ...q, limit, now: NOW, ...(after ? { after } : {}) });
          ids.push(...page.map((e) => e.id));
          if (page.length < limit) return ids;
          after = positionOf(page.at(-1)!);
        }
        throw new Error('paging never ended');
      };
      expect(await pages({}, 7)).toEqual(expected(() => true));
      expect(await pages({ state: 'filled', protocol: 'paper-perps' }, 5)).toEqual(expected((e) => e.state === 'filled' && e.protocol === 'paper-perps'));
      expect(await pages({ referencePrefix: 'hedge-' }, 4)).toEqual(expected((e) => e.referenceId.startsWith('hedge-')));
      const from = NOW + 5000;
      const to = NOW + 12_000;
      expect(await pages({ from, to }, 3)).toEqual(expected((e) => e.createdAt >= from && e.createdAt <= to));
      expect(await executions.list(account, { limit: 10, now: NOW, state: 'unknown' })).toEqual([]);
    });

    it('approvals: listed newest first in pages; an approval past its expiry lists as expired', async () => {
      const { approvals } = await make();
      const account = `list-${Math.random().toString(36).slice(2)}`;
      for (let i = 0; i < 12; i++) {
        await approvals.create(
          approval(`a-${String(i).padStart(2, '0')}`, {
            accountId: account,
            createdAt: NOW + i * 1000,
            expiresAt: NOW + i * 1000 + 5000,
            instruction: { referenceId: `ref-${i}`, protocol: i % 2 ? 'paper-perps' : 'paper-lending' },
          }),
        );
      }
      const now = NOW + 10_000;
      const first = await approvals.list(account, { limit: 5, now });
      expect(first.map((a) => a.id)).toEqual(['a-11', 'a-10', 'a-09', 'a-08', 'a-07']);
      const second = await approvals.list(account, { limit: 5, now, after: positionOf(first.at(-1)!) });
      expect(second.map((a) => a.id)).toEqual(['a-06', 'a-05', 'a-04', 'a-03', 'a-02']);
      const expired = await approvals.list(account, { limit: 50, now, state: 'expired' });
      expect(expired.map((a) => a.id)).toEqual(['a-05', 'a-04', 'a-03', 'a-02', 'a-01', 'a-00']);
      const pending = await approvals.list(account, { limit: 50, now, state: 'pending', protocol: 'paper-perps', referencePrefix: 'ref-1' });
      expect(pending.map((a) => a.id)).toEqual(['a-11']);
    });

    it('agent sessions: listed per account; period spend is capped atomically', async () => {
      const { agentSessions } = await make();
      await agentSessions.put(session('s1'));
      await agentSessions.put({ ...session('s2'), accountId: 'other' });
      expect((await agentSessions.list('acct')).map((s) => s.id)).toEqual(['s1']);
      await agentSessions.put({ ...session('s1'), revokedAt: NOW });
      expect((await agentSessions.get('s1'))!.revokedAt).toBe(NOW);
      const spends = await Promise.all(Array.from({ length: 10 }, () => agentSessions.addSpend('s1', NOW, '100.25', '250.50', 60_000)));
      expect(spends.filter((s) => s.ok)).toHaveLength(2);
      expect(await agentSessions.addSpend('s1', NOW, '50.01', '250.50', 60_000)).toEqual({ ok: false, spent: '200.5' });
      expect(await agentSessions.addSpend('s1', NOW, '50', '250.50', 60_000)).toEqual({ ok: true, spent: '250.5' });
      expect((await agentSessions.addSpend('s1', NOW + 3_600_000, '100', '250.50', 60_000)).ok).toBe(true);
    });

    it('wallet sessions: a nonce works once across concurrent consumers; sessions revoke per account', async () => {
      const { walletSessions } = await make();
      await walletSessions.putNonce('n1', 60_000);
      const consumed = await Promise.all(Array.from({ length: 10 }, () => walletSessions.consumeNonce('n1')));
      expect(consumed.filter(Boolean)).toHaveLength(1);
      expect(await walletSessions.consumeNonce('never-issued')).toBe(false);
      const s = { accountId: 'acct', wallet: '0x1', createdAt: NOW, expiresAt: NOW + 60_000 };
      await walletSessions.putSession('h1', s, 60_000);
      expect(await walletSessions.getSession('h1')).toEqual(s);
      await walletSessions.revokeSessions('acct');
      expect(await walletSessions.getSession('h1')).toBeUndefined();
    });

    it('ledger: seeds once, applies all-or-nothing with exact decimals, names the short token', async () => {
      const { ledger } = await make();
      await ledger.seed('acct', { USDC: '1000.5', WETH: '0.000000015' });
      await ledger.seed('acct', { USDC: '1' });
      expect(await ledger.balances('acct')).toEqual({ USDC: '1000.5', WETH: '0.00000001' });
      expect(await ledger.apply('acct', { USDC: '-0.1', 'position:BTC-PERP': '-2' }, ['position:BTC-PERP'])).toEqual({ ok: true });
      const short = await ledger.apply('acct', { WETH: '5', USDC: '-2000' }, []);
      expect(short).toEqual({ ok: false, token: 'USDC', available: '1000.4', required: '2000' });
      expect(await ledger.balances('acct')).toEqual({ USDC: '1000.4', WETH: '0.00000001', 'position:BTC-PERP': '-2' });
      const racing = await Promise.all(Array.from({ length: 20 }, () => ledger.apply('acct', { USDC: '-100' }, [])));
      expect(racing.filter((r) => r.ok)).toHaveLength(10);
      expect((await ledger.balances('acct'))!.USDC).toBe('0.4');
      expect(await ledger.balances('nobody')).toBeUndefined();
    });

    it('executions: the open ones are listed until they are final', async () => {
      const { executions } = await make();
      const [a, b] = [execution('o1', 'ref-o1'), execution('o2', 'ref-o2')];
      await executions.create(a);
      await executions.create(b);
      await executions.update({ ...b, state: 'unknown' });
      expect((await executions.listOpen(10)).map((e) => e.id).sort()).toEqual(['o1', 'o2']);
      await executions.update({ ...a, state: 'filled' });
      await executions.update({ ...b, state: 'failed' });
      expect(await executions.listOpen(10)).toEqual([]);
    });

    it('agent sessions: an entry settles to its fill and gives back exactly what it counted, once', async () => {
      const { agentSessions } = await make();
      expect((await agentSessions.addSpend('s9', NOW, '100', '1000', 60_000, 'e1')).ok).toBe(true);
      expect((await agentSessions.addSpend('s9', NOW, '50', '1000', 60_000, 'e2')).ok).toBe(true);
      await agentSessions.settleSpend('s9', NOW, 'e1', '80.5');
      expect(await agentSessions.spent('s9', NOW)).toBe('130.5');
      await Promise.all([agentSessions.settleSpend('s9', NOW, 'e2', '0'), agentSessions.settleSpend('s9', NOW, 'e2', '0')]);
      await agentSessions.settleSpend('s9', NOW, 'never-counted', '0');
      expect(await agentSessions.spent('s9', NOW)).toBe('80.5');
    });

    it('approvals: a consumption is given back only to the execution that made it', async () => {
      const { approvals } = await make();
      await approvals.create(approval('a9'));
      await approvals.decide('a9', 'approved', NOW);
      expect(await approvals.consume('a9', 'hash-1', 'e1', NOW)).toBe('consumed');
      expect(await approvals.release('a9', 'e2')).toBe(false);
      expect(await approvals.release('a9', 'e1')).toBe(true);
      expect(await approvals.get('a9')).toMatchObject({ state: 'approved', executionId: null, consumedAt: null });
      expect(await approvals.release('a9', 'e1')).toBe(false);
    });

    it('ledger: an order is booked once under its id; a void refuses later bookings; an undo books only over its record', async () => {
      const { ledger } = await make();
      await ledger.seed('acct', { USDC: '100' });
      const booking = { changes: { USDC: '-10', 'position:X': '1' }, mayGoNegative: ['position:X'], record: 'filled' };
      const twice = await Promise.all([ledger.book('acct', 'o1', booking), ledger.book('acct', 'o1', booking)]);
      expect(twice.filter((r) => r.booked)).toHaveLength(1);
      expect(twice.find((r) => !r.booked)).toEqual({ booked: false, existing: 'filled' });
      expect((await ledger.balances('acct'))!.USDC).toBe('90');
      expect(await ledger.book('acct', 'o1', { changes: { USDC: '10', 'position:X': '-1' }, mayGoNegative: [], record: 'undone', replacing: 'nope' })).toEqual({
        booked: false,
        existing: 'filled',
      });
      expect(
        (
          await ledger.book('acct', 'o1', {
            changes: { USDC: '10', 'position:X': '-1' },
            mayGoNegative: ['USDC', 'position:X'],
            record: 'undone',
            replacing: 'filled',
          })
        ).booked,
      ).toBe(true);
      expect(await ledger.order('acct', 'o1')).toBe('undone');
      expect((await ledger.book('acct', 'o2', { changes: {}, mayGoNegative: [], record: 'void' })).booked).toBe(true);
      expect(await ledger.book('acct', 'o2', booking)).toEqual({ booked: false, existing: 'void' });
      expect(await ledger.book('acct', 'o3', { changes: { USDC: '-1000' }, mayGoNegative: [], record: 'x' })).toMatchObject({
        booked: false,
        short: { token: 'USDC' },
      });
      expect(await ledger.order('acct', 'o3')).toBeUndefined();
      expect((await ledger.balances('acct'))!.USDC).toBe('100');
    });

    it('audit: an append-only hash chain, concurrent appends included', async () => {
      const { audit } = await make();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => audit.append('acct', { at: new Date(NOW).toISOString(), type: 'preview', referenceId: `r${i}`, details: { i } })),
      );
      await audit.append('other', { at: new Date(NOW).toISOString(), type: 'x', referenceId: null, details: {} });
      const entries = await audit.list('acct', 100);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(verifyAuditChain(entries)).toEqual({ valid: true, brokenAt: null });
      expect((await audit.list('acct', 5)).map((e) => e.seq)).toEqual([16, 17, 18, 19, 20]);
      expect((await audit.list('acct', 5, 16)).map((e) => e.seq)).toEqual([11, 12, 13, 14, 15]);
      expect((await audit.list('acct', 5, 3)).map((e) => e.seq)).toEqual([1, 2]);
      expect(await audit.list('acct', 5, 1)).toEqual([]);
      const tampered = entries.map((e, i) => (i === 7 ? { ...e, details: { i: 'changed' } } : e));
      expect(verifyAuditChain(tampered)).toEqual({ valid: false, brokenAt: 8 });
    });
  });
}
