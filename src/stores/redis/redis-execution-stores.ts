import { Decimal } from '../../domain/decimal.js';
import { auditHash, GENESIS_HASH } from '../../execution/audit-chain.js';
import type { AgentSession, Approval, AuditEntry, Execution, WalletSession } from '../../execution/execution-types.js';
import type { ExecutionStores } from '../open-stores.js';
import type {
  AgentSessionStore,
  ApprovalStore,
  AuditStore,
  ClaimResult,
  ExecutionStore,
  IdempotencyStore,
  LedgerStore,
  WalletSessionStore,
} from '../../execution/execution-stores.js';
import { fromUnits, toUnits } from '../../domain/ledger-units.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

/**
 * Approvals, executions and audit entries are kept 90 days; sessions and claims by their own TTL.
 * Every call goes through `guard`: an unreachable Redis is a clean 503, which the execution
 * path turns into POLICY_UNAVAILABLE (fail closed).
 */
const RECORD_TTL_MS = 90 * 24 * 3_600_000;

const json = <T>(s: string | null): T | undefined => (s === null ? undefined : (JSON.parse(s) as T));

/** KEYS[1] idempotency record; ARGV: fingerprint, ttl. Claims with SET NX, else returns the holder. */
const CLAIM = new LuaScript(`
local record = cjson.encode({fingerprint = ARGV[1], value = cjson.null})
if redis.call('SET', KEYS[1], record, 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[1])`);

/** KEYS[1] idempotency record; ARGV: fingerprint. Deletes the claim only if this fingerprint holds it. */
const RELEASE = new LuaScript(`
local current = redis.call('GET', KEYS[1])
if current and cjson.decode(current).fingerprint == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (key: string) => this.redis.key('idem', key);
  async claim(key: string, fingerprint: string, ttlMs: number): Promise<ClaimResult> {
    return this.redis.guard(async () => {
      const holder = (await this.redis.run(CLAIM, [this.k(key)], [fingerprint, ttlMs])) as string | null;
      if (holder === null) return { claimed: true };
      const record = JSON.parse(holder) as { fingerprint: string; value: string | null };
      return { claimed: false, fingerprint: record.fingerprint, value: record.value ?? null };
    });
  }
  async get(key: string) {
    return this.redis.guard(async () => {
      const record = json<{ fingerprint: string; value: string | null }>(await this.redis.client.get(this.k(key)));
      return record && { fingerprint: record.fingerprint, value: record.value ?? null };
    });
  }
  async complete(key: string, fingerprint: string, value: string, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.k(key), JSON.stringify({ fingerprint, value }), { PX: ttlMs });
    });
  }
  async release(key: string, fingerprint: string) {
    return this.redis.guard(async () => {
      await this.redis.run(RELEASE, [this.k(key)], [fingerprint]);
    });
  }
}

/** KEYS[1] approval; ARGV: to-state, now. pending and unexpired → decided, else nil. */
const DECIDE = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local a = cjson.decode(raw)
if a.state ~= 'pending' or a.expiresAt <= tonumber(ARGV[2]) then return false end
a.state = ARGV[1]
a.decidedAt = tonumber(ARGV[2])
local out = cjson.encode(a)
redis.call('SET', KEYS[1], out, 'KEEPTTL')
return out`);

/** KEYS[1] approval; ARGV: instruction hash, execution id, now. The one-time consumption. */
const CONSUME = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 'not_found' end
local a = cjson.decode(raw)
if a.state == 'consumed' then return 'already_consumed' end
if a.state ~= 'approved' then return 'not_approved' end
if a.expiresAt <= tonumber(ARGV[3]) then return 'expired' end
if a.instructionHash ~= ARGV[1] then return 'hash_mismatch' end
a.state = 'consumed'
a.consumedAt = tonumber(ARGV[3])
a.executionId = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(a), 'KEEPTTL')
return 'consumed'`);

export class RedisApprovalStore implements ApprovalStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('approval', id);
  async create(a: Approval) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.k(a.id), JSON.stringify(a), { PX: RECORD_TTL_MS });
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<Approval>(await this.redis.client.get(this.k(id)));
    });
  }
  async decide(id: string, to: 'approved' | 'rejected', now: number) {
    return this.redis.guard(async () => {
      return json<Approval>(((await this.redis.run(DECIDE, [this.k(id)], [to, now])) as string | null) ?? null);
    });
  }
  async consume(id: string, hash: string, executionId: string, now: number) {
    return this.redis.guard(async () => {
      return (await this.redis.run(CONSUME, [this.k(id)], [hash, executionId, now])) as Awaited<ReturnType<ApprovalStore['consume']>>;
    });
  }
}

export class RedisExecutionStore implements ExecutionStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('execution', id);
  private ref = (accountId: string, referenceId: string) => this.redis.key('execution-ref', accountId, referenceId);
  async create(e: Execution) {
    return this.redis.guard(async () => {
      await this.redis.client
        .multi()
        .set(this.k(e.id), JSON.stringify(e), { PX: RECORD_TTL_MS })
        .set(this.ref(e.accountId, e.referenceId), e.id, { PX: RECORD_TTL_MS })
        .exec();
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<Execution>(await this.redis.client.get(this.k(id)));
    });
  }
  async update(e: Execution) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.k(e.id), JSON.stringify(e), { KEEPTTL: true });
    });
  }
  async findByReference(accountId: string, referenceId: string) {
    return this.redis.guard(async () => {
      const id = await this.redis.client.get(this.ref(accountId, referenceId));
      return id ? this.get(id) : undefined;
    });
  }
}

/**
 * KEYS[1] period counter in cents; ARGV: amount cents, cap cents, ttl. Adds unless it would pass
 * the cap. Cents keep Lua's double arithmetic exact up to 9e13 USD.
 */
const ADD_SPEND = new LuaScript(`
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if spent + amount > tonumber(ARGV[2]) then return {0, tostring(spent)} end
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, tostring(total)}`);

const cents = (usd: string, rounding: Decimal.Rounding) => new Decimal(usd).mul(100).toFixed(0, rounding);

export class RedisAgentSessionStore implements AgentSessionStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('agent-session', id);
  private index = (accountId: string) => this.redis.key('agent-sessions', accountId);
  async put(s: AgentSession) {
    return this.redis.guard(async () => {
      await this.redis.client.multi().set(this.k(s.id), JSON.stringify(s)).sAdd(this.index(s.accountId), s.id).exec();
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<AgentSession>(await this.redis.client.get(this.k(id)));
    });
  }
  async list(accountId: string) {
    return this.redis.guard(async () => {
      const ids = await this.redis.client.sMembers(this.index(accountId));
      if (ids.length === 0) return [];
      const raw = await this.redis.client.mGet(ids.map((id) => this.k(id)));
      return raw.flatMap((r) => (r ? [JSON.parse(r) as AgentSession] : []));
    });
  }
  async addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number) {
    return this.redis.guard(async () => {
      // The cap rounds down and the amount up, so cents never let an order slip past a cap.
      const key = this.redis.key('agent-spend', sessionId, periodStart);
      const [ok, spent] = (await this.redis.run(ADD_SPEND, [key], [cents(amount, Decimal.ROUND_UP), cents(cap, Decimal.ROUND_DOWN), ttlMs])) as [
        number,
        string,
      ];
      return { ok: ok === 1, spent: new Decimal(spent).div(100).toString() };
    });
  }
}

export class RedisWalletSessionStore implements WalletSessionStore {
  constructor(private readonly redis: RedisConnection) {}
  private nonce = (n: string) => this.redis.key('siwe-nonce', n);
  private session = (hash: string) => this.redis.key('wallet-session', hash);
  private index = (accountId: string) => this.redis.key('wallet-sessions', accountId);
  async putNonce(nonce: string, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.nonce(nonce), '1', { PX: ttlMs });
    });
  }
  async consumeNonce(nonce: string) {
    return this.redis.guard(async () => {
      // DEL answers 1 to exactly one caller: the nonce works once across every replica.
      return (await this.redis.client.del(this.nonce(nonce))) === 1;
    });
  }
  async putSession(tokenHash: string, session: WalletSession, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client
        .multi()
        .set(this.session(tokenHash), JSON.stringify(session), { PX: ttlMs })
        .sAdd(this.index(session.accountId), tokenHash)
        .pExpire(this.index(session.accountId), ttlMs)
        .exec();
    });
  }
  async getSession(tokenHash: string) {
    return this.redis.guard(async () => {
      return json<WalletSession>(await this.redis.client.get(this.session(tokenHash)));
    });
  }
  async revokeSessions(accountId: string) {
    return this.redis.guard(async () => {
      const hashes = await this.redis.client.sMembers(this.index(accountId));
      if (hashes.length > 0) await this.redis.client.del([...hashes.map((h) => this.session(h)), this.index(accountId)]);
    });
  }
}

/** KEYS[1] ledger hash; ARGV: field, units pairs. Seeds only an absent ledger. */
const SEED = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], '__seeded', '1')
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`);

/**
 * KEYS[1] ledger hash; ARGV[1] count of changes, then field/units/may-go-negative triples.
 * Applies every change with exact int64 HINCRBY; if a field that may not go negative does,
 * undoes all of them and names it.
 */
const APPLY = new LuaScript(`
local n = tonumber(ARGV[1])
local applied = {}
for i = 0, n - 1 do
  local field, units, negative = ARGV[2 + i * 3], ARGV[3 + i * 3], ARGV[4 + i * 3]
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
end
return {1}`);

export class RedisLedgerStore implements LedgerStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (accountId: string) => this.redis.key('ledger', accountId);
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
}

/** KEYS[1] chain list, KEYS[2] head hash; ARGV: expected seq, entry json, new hash. Appends only onto the expected head. */
const APPEND_AUDIT = new LuaScript(`
local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if seq ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'seq', seq + 1, 'hash', ARGV[3])
return 1`);

/**
 * The audit chain in Redis: the entry hash is SHA-256 computed here over canonical JSON, and the
 * append is a compare-and-append on the chain head, retried when another replica appended first.
 */
export class RedisAuditStore implements AuditStore {
  constructor(private readonly redis: RedisConnection) {}
  private list_ = (accountId: string) => this.redis.key('audit', accountId);
  private head = (accountId: string) => this.redis.key('audit-head', accountId);
  async append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>): Promise<AuditEntry> {
    return this.redis.guard(async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const head = await this.redis.client.hGetAll(this.head(accountId));
        const seq = Number(head.seq ?? 0);
        const body = { ...entry, accountId, seq: seq + 1, prevHash: head.hash ?? GENESIS_HASH };
        const full: AuditEntry = { ...body, hash: auditHash(body) };
        if ((await this.redis.run(APPEND_AUDIT, [this.list_(accountId), this.head(accountId)], [seq, JSON.stringify(full), full.hash])) === 1) return full;
      }
      throw new Error(`audit chain of ${accountId} is too contended`);
    });
  }
  async list(accountId: string, limit: number) {
    return this.redis.guard(async () => {
      return (await this.redis.client.lRange(this.list_(accountId), -limit, -1)).map((e) => JSON.parse(e) as AuditEntry);
    });
  }
}

/** The execution plane's stores on the shared Redis. */
export function redisExecutionStores(redis: RedisConnection): ExecutionStores {
  return {
    idempotency: new RedisIdempotencyStore(redis),
    approvals: new RedisApprovalStore(redis),
    executions: new RedisExecutionStore(redis),
    agentSessions: new RedisAgentSessionStore(redis),
    walletSessions: new RedisWalletSessionStore(redis),
    ledger: new RedisLedgerStore(redis),
    audit: new RedisAuditStore(redis),
  };
}
