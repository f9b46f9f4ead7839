import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '../../src/sources/request-budget.js';

/** The budget on a fake clock: what it lets through, when, and in which order. */
describe('a venue request budget', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  const sent: string[] = [];
  const track = (budget: RequestBudget, name: string, weight: number, priority: 'poll' | 'background' = 'poll') =>
    budget.take(weight, priority).then(() => void sent.push(`${name}@${Date.now() - 1_000_000}`));
  beforeEach(() => void sent.splice(0));

  it('never lets a minute pass its weight: a request waits until enough of the minute’s spending has left the window', async () => {
    const budget = new RequestBudget(100);
    void track(budget, 'a', 60);
    await vi.advanceTimersByTimeAsync(10_000);
    void track(budget, 'b', 30);
    void track(budget, 'c', 20); // 110 > 100: waits for a to leave the window, at 60 s
    await vi.advanceTimersByTimeAsync(49_000);
    expect(sent).toEqual(['a@0', 'b@10000']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toEqual(['a@0', 'b@10000', 'c@60000']);
    expect(budget.spentLastMinute()).toBe(50);
  });

  it('polls go before background requests and keep their reserve; background uses only what the polls leave', async () => {
    const budget = new RequestBudget(100, { reservedForPolls: 40 });
    void track(budget, 'history1', 50, 'background');
    void track(budget, 'history2', 20, 'background'); // 70 > 60 for background: waits
    void track(budget, 'poll1', 20); // polls may use the reserve: 70 ≤ 100
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['history1@0', 'poll1@0']);
    void track(budget, 'poll2', 20);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['history1@0', 'poll1@0', 'poll2@0']);
    await vi.advanceTimersByTimeAsync(60_001);
    expect(sent.at(-1)).toBe('history2@60000');
  });

  it('a 429’s pause holds every request until it has passed, then each goes once (no storm)', async () => {
    const budget = new RequestBudget(1_000);
    budget.pauseUntil(Date.now() + 3_000);
    void track(budget, 'poll', 20);
    void track(budget, 'history', 20, 'background');
    await vi.advanceTimersByTimeAsync(2_999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toEqual(['poll@3000', 'history@3000']);
  });

  it('a new leader counts what the fleet sent in the last minute, and tells the ledger what it sends', async () => {
    const told: number[] = [];
    const budget = new RequestBudget(100);
    budget.onSpend = (s) => void told.push(s.weight);
    budget.restore([
      { at: Date.now() - 70_000, weight: 90 }, // left the minute already
      { at: Date.now() - 30_000, weight: 80 },
    ]);
    void track(budget, 'poll', 30); // 110 > 100: waits until the other replica's 80 leaves the window, 30 s on
    await vi.advanceTimersByTimeAsync(29_000);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(sent).toEqual(['poll@30000']);
    expect(told).toEqual([30]);
  });

  it('closing it rejects what waits and what comes after', async () => {
    const budget = new RequestBudget(10);
    await budget.take(10);
    const waiting = budget.take(5);
    budget.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(budget.take(1)).rejects.toThrow(/closed/);
  });

  it('what others send at once (an order) is charged without waiting: background work waits for its room, polls keep theirs', async () => {
    const told: number[] = [];
    const budget = new RequestBudget(100, { reservedForPolls: 40 });
    budget.onSpend = (s) => void told.push(s.weight);
    budget.charge(50);
    budget.charge(0); // nothing
    expect(budget.spentLastMinute()).toBe(50);
    expect(budget.chargedLastMinute()).toBe(50);
    void track(budget, 'history', 20, 'background'); // 50 + 20 > 60 for background: waits for the charge to leave the window
    void track(budget, 'poll', 90); // polls count only their own: 90 ≤ 100
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['poll@0']);
    await vi.advanceTimersByTimeAsync(60_001);
    expect(sent).toEqual(['poll@0', 'history@60000']);
    expect(told).toEqual([50, 90, 20]);
    budget.close();
    budget.charge(10); // closed: nothing
    expect(budget.chargedLastMinute()).toBe(0);
  });

  it('refuses a reserve that leaves background work nothing', () => {
    expect(() => new RequestBudget(100, { reservedForPolls: 100 })).toThrow(/background/);
  });
});
