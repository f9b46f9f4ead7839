import { fromUnits, toUnits } from '../../domain/ledger-units.js';
import type { Booking, BookResult, LedgerStore } from '../../execution/execution-stores.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

/** KEYS[1] ledger hash; ARGV: field, units pairs. Seeds only an absent ledger. */
const SEED = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], '__seeded', '1')
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`);

/**
 * Lua applying the changes counted by ARGV[at], then field/units/may-go-negative triples, to the
 * ledger hash KEYS[1] with exact int64 HINCRBY; if a field that may not go negative does, it
 * undoes all of them and returns {0, field, before, units}.
 */
const applyChanges = (at: number) => `
local n = tonumber(ARGV[${at}])
local applied = {}
for i = 0, n - 1 do
  local field, units, negative = ARGV[${at + 1} + i * 3], ARGV[${at + 2} + i * 3], ARGV[${at + 3} + i * 3]
  local before = redis.call('HGET', KEYS[1], field) or '0'
  local after = redis.call('HINCRBY', KEYS[1], field, units)
  table.insert(applied, {field, units})
  if after < 0 and negative == '0' then
    for _, a in ipairs(applied) do
      local undo = (a[2]:sub(1, 1) == '-') and a[2]:sub(2) or ('-' .. a[2])
      redis.call('HINCRBY', KEYS[1], a[1], undo)
    end
    return {0, field, before, units}
  end
end`;

/** KEYS[1] ledger hash; ARGV[1] count of changes, then the triples (applyChanges). */
const APPLY = new LuaScript(`${applyChanges(1)}
return {1}`);

/**
 * KEYS[1] ledger hash, KEYS[2] the account's venue orders hash; ARGV[1] order id, ARGV[2] record,
 * ARGV[3] the record to replace ('' for none), then the APPLY arguments. Books the order once.
 */
const BOOK = new LuaScript(`
local existing = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if existing ~= ARGV[3] then return {2, existing} end
${applyChanges(4)}
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {1}`);

export class RedisLedgerStore implements LedgerStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (accountId: string) => this.redis.key('ledger', accountId);
  private orders = (accountId: string) => this.redis.key('venue-orders', accountId);
  async balances(accountId: string) {
    return this.redis.guard(async () => {
      const raw = await this.redis.client.hGetAll(this.k(accountId));
      const entries = Object.entries(raw).filter(([f]) => f !== '__seeded');
      if (Object.keys(raw).length === 0) return undefined;
      return Object.fromEntries(entries.map(([f, v]) => [f, fromUnits(BigInt(v))]));
    });
  }
  async seed(accountId: string, balances: Record<string, string>) {
    return this.redis.guard(async () => {
      await this.redis.run(
        SEED,
        [this.k(accountId)],
        Object.entries(balances).flatMap(([t, v]) => [t, toUnits(v).toString()]),
      );
    });
  }
  async apply(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]) {
    return this.redis.guard(async () => {
      // Zero changes are dropped: nothing to apply, and `-0` is no integer to HINCRBY when undoing.
      const entries = Object.entries(changes).filter(([, v]) => toUnits(v) !== 0n);
      const args = entries.flatMap(([t, v]) => [t, toUnits(v).toString(), mayGoNegative.includes(t) ? '1' : '0']);
      const result = (await this.redis.run(APPLY, [this.k(accountId)], [entries.length, ...args])) as [number, string?, string?, string?];
      if (result[0] === 1) return { ok: true as const };
      return { ok: false as const, token: result[1]!, available: fromUnits(BigInt(result[2]!)), required: fromUnits(-BigInt(result[3]!)) };
    });
  }
  async book(accountId: string, orderId: string, b: Booking): Promise<BookResult> {
    return this.redis.guard(async () => {
      const entries = Object.entries(b.changes).filter(([, v]) => toUnits(v) !== 0n);
      const args = entries.flatMap(([t, v]) => [t, toUnits(v).toString(), b.mayGoNegative.includes(t) ? '1' : '0']);
      const keys = [this.k(accountId), this.orders(accountId)];
      const result = (await this.redis.run(BOOK, keys, [orderId, b.record, b.replacing ?? '', entries.length, ...args])) as [number, string?, string?, string?];
      if (result[0] === 1) return { booked: true };
      if (result[0] === 2) return { booked: false, existing: result[1]! };
      return { booked: false, short: { token: result[1]!, available: fromUnits(BigInt(result[2]!)), required: fromUnits(-BigInt(result[3]!)) } };
    });
  }
  async order(accountId: string, orderId: string) {
    return this.redis.guard(async () => (await this.redis.client.hGet(this.orders(accountId), orderId)) ?? undefined);
  }
}
