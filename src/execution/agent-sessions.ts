import { randomUUID } from 'node:crypto';
import { Decimal } from '../domain/decimal.js';
import { z } from 'zod';
import type { Principal } from '../auth/authenticator.js';
import { isRfc3339 } from '../domain/rfc3339.js';
import type { ExecutionDeps } from './execution-deps.js';
import type { AgentSession } from './execution-types.js';
import { activeSessionsOf, periodStartOf } from './agent-session-scope.js';
import { invalidBody, invalidField, notFound } from '../errors/error-factories.js';
import { positiveDecimal } from '../domain/validators.js';
import { gateRefusal } from '../errors/gate-refusals.js';

const MAX_SESSION_MS = 30 * 24 * 3_600_000;
const list = z.array(z.string().min(1).max(64)).min(1).max(50);

/** The body of POST /api/v1/agent-sessions (also the contract's AgentSessionRequest). */
export const agentSessionRequestSchema = z.object({
  apiKeyId: z.string().min(1),
  protocols: list,
  actions: list,
  assets: list,
  maxOrderNotional: positiveDecimal,
  maxPeriodNotional: positiveDecimal,
  periodSeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400),
  startsAt: z.string().refine(isRfc3339, 'must be an RFC 3339 date-time').optional(),
  expiresAt: z.string().refine(isRfc3339, 'must be an RFC 3339 date-time'),
});

/**
 * Agent sessions: a wallet session of the account activates one for one API key, bounded by
 * protocols, actions, assets, a per-order and a per-period notional cap, a start and an expiry.
 * Period spend is counted atomically in the store, shared by every replica.
 */
export class AgentSessions {
  constructor(private readonly deps: ExecutionDeps) {}

  async activate(principal: Principal, input: unknown): Promise<AgentSession> {
    if (principal.kind !== 'wallet')
      throw gateRefusal('POLICY_DENIED', 'Agent sessions are activated by a wallet session.', { gate: 'authority', check: 'wallet_session' });
    const parsed = agentSessionRequestSchema.safeParse(input);
    if (!parsed.success) throw invalidBody(parsed.error);
    const a = parsed.data;
    const now = this.deps.clock.now();
    const key = await this.deps.identities.getKey(a.apiKeyId);
    if (!key || key.accountId !== principal.account.id || key.revoked) throw invalidField('apiKeyId', 'is not an active key of this account');
    if (!key.scopes.includes('execute:live')) throw invalidField('apiKeyId', 'lacks the execute:live scope');
    const visible = this.deps.protocols.visibleProtocols();
    for (const p of a.protocols) if (!visible.some((v) => v.id === p)) throw invalidField('protocols', `names an unknown protocol ${p}`);
    for (const action of a.actions)
      if (!visible.some((v) => a.protocols.includes(v.id) && v.actions.some((x) => x.id === action)))
        throw invalidField('actions', `names ${action}, not an action of the chosen protocols`);
    if (new Decimal(a.maxOrderNotional).gt(a.maxPeriodNotional)) throw invalidField('maxOrderNotional', 'must not exceed maxPeriodNotional');
    const startsAt = a.startsAt ? Date.parse(a.startsAt) : now;
    const expiresAt = Date.parse(a.expiresAt);
    if (expiresAt <= Math.max(startsAt, now)) throw invalidField('expiresAt', 'must be after startsAt and in the future');
    if (expiresAt - startsAt > MAX_SESSION_MS) throw invalidField('expiresAt', 'must be within 30 days of startsAt');
    const session: AgentSession = {
      id: `ags_${randomUUID()}`,
      accountId: principal.account.id,
      apiKeyId: key.id,
      protocols: a.protocols,
      actions: a.actions,
      assets: a.assets.map((x) => x.toUpperCase()),
      maxOrderNotional: a.maxOrderNotional,
      maxPeriodNotional: a.maxPeriodNotional,
      periodSeconds: a.periodSeconds,
      startsAt,
      expiresAt,
      revokedAt: null,
      createdAt: now,
    };
    await this.deps.agentSessions.put(session);
    await this.deps.audit.record(session.accountId, 'agent_session_activated', null, { agentSessionId: session.id, apiKeyId: key.id });
    return session;
  }

  list(accountId: string): Promise<AgentSession[]> {
    return this.deps.agentSessions.list(accountId);
  }

  activeFor(accountId: string, keyId: string, now: number): Promise<AgentSession[]> {
    return activeSessionsOf(this.deps.agentSessions, accountId, keyId, now);
  }

  async revoke(principal: Principal, id: string): Promise<AgentSession> {
    const session = await this.deps.agentSessions.get(id);
    if (!session || session.accountId !== principal.account.id) throw notFound('agent_session_not_found', `No agent session ${id} for this account.`);
    if (principal.kind === 'key' && principal.key.id !== session.apiKeyId)
      throw gateRefusal('POLICY_DENIED', 'A key may revoke only its own sessions.', { gate: 'authority' });
    const revoked = { ...session, revokedAt: session.revokedAt ?? this.deps.clock.now() };
    await this.deps.agentSessions.put(revoked);
    await this.deps.audit.record(session.accountId, 'agent_session_revoked', null, { agentSessionId: id });
    return revoked;
  }

  /** Adds an order's notional to the session's current period; false when it would pass the cap. */
  async spend(session: AgentSession, notionalUsd: string, now: number, executionId?: string): Promise<boolean> {
    const periodMs = session.periodSeconds * 1000;
    const periodStart = periodStartOf(session, now);
    return (await this.deps.agentSessions.addSpend(session.id, periodStart, notionalUsd, session.maxPeriodNotional, periodMs * 2, executionId)).ok;
  }
}
