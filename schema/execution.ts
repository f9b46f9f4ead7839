import type { AgentSession, Approval, AuditEntry, Execution, Fill } from '../src/execution/execution-types.js';
import { EXECUTION_STATES } from '../src/execution/execution-types.js';
import { effectiveState } from '../src/execution/approvals.js';
import type { StoredPreview } from '../src/execution/previews.js';
import type { GateVerdict } from '../src/execution/gates.js';
import type { Quote } from '../src/execution/venues/execution-venue.js';
import { GatewayError } from '../src/errors/gateway-error.js';
import { isPolicyStoreOutage, policyUnavailable } from '../src/execution/executions.js';
import { markReplayed, principalOf } from '../resolvers/execution/principal.js';
import { applyControlChange } from '../resolvers/execution/operator-controls.js';
import type { ControlsState } from '../src/controls/execution-controls.js';
import { builder } from './builder.js';

const AssetInInput = builder.inputType('AssetInInput', {
  fields: (t) => ({
    token: t.string({ required: true }),
    amount: t.string({ required: true, description: 'Decimal string.' }),
  }),
});

const MetadataInput = builder.inputType('ExecutionMetadataInput', {
  description: 'Order details: side, type and price for orders; tokenOut and slippageBps for swaps; leverage for perpetuals.',
  fields: (t) => ({
    side: t.string({ description: 'buy or sell' }),
    type: t.string({ description: 'market or limit' }),
    price: t.string({ description: 'Limit price, decimal string.' }),
    leverage: t.int(),
    tokenOut: t.string(),
    slippageBps: t.int(),
  }),
});

const TokenAmountRef = builder.objectRef<{ token: string; amount: string }>('TokenAmount').implement({
  fields: (t) => ({ token: t.exposeString('token'), amount: t.field({ type: 'Decimal', resolve: (x) => x.amount }) }),
});

const QuoteRef = builder.objectRef<Quote>('Quote').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    side: t.exposeString('side', { nullable: true }),
    price: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.price }),
    amount: t.field({ type: 'Decimal', resolve: (q) => q.amount }),
    notionalUsd: t.field({ type: 'Decimal', resolve: (q) => q.notionalUsd }),
    fee: t.field({ type: 'Decimal', resolve: (q) => q.fee }),
    feeToken: t.exposeString('feeToken'),
    amountOut: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.amountOut }),
    minAmountOut: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.minAmountOut }),
    balanceChanges: t.field({
      type: [TokenAmountRef],
      description: 'Signed ledger changes on a full fill.',
      resolve: (q) => Object.entries(q.changes).map(([token, amount]) => ({ token, amount })),
    }),
  }),
});

const GateVerdictRef = builder.objectRef<GateVerdict>('GateVerdict').implement({
  fields: (t) => ({
    gate: t.exposeString('gate', { description: 'feature_flag, certification, venue, authority, quote, balance or idempotency.' }),
    status: t.exposeString('status', { description: 'pass, block, or not_evaluated when an earlier gate blocks.' }),
    code: t.exposeString('code', { nullable: true, description: 'The error a submission would get now.' }),
    reason: t.exposeString('reason'),
  }),
});

const PreviewRef = builder.objectRef<StoredPreview & { replayed: boolean }>('ExecutionPreview').implement({
  fields: (t) => ({
    previewId: t.exposeString('id'),
    referenceId: t.exposeString('referenceId'),
    instructionHash: t.exposeString('instructionHash', { description: 'SHA-256 of the RFC 8785 canonical request without approvalId.' }),
    instruction: t.field({ type: 'JSONObject', resolve: (p) => p.instruction as Record<string, unknown> }),
    quote: t.field({ type: QuoteRef, nullable: true, resolve: (p) => p.quote }),
    gates: t.field({ type: [GateVerdictRef], resolve: (p) => p.gates }),
    executable: t.exposeBoolean('executable'),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => p.createdAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.expiresAt }),
    replayed: t.exposeBoolean('replayed'),
  }),
});

const SigningRequestRef = builder.objectRef<{ statement: string; resources: string[]; domain: string }>('SigningRequest').implement({
  description: 'What to put in the EIP-4361 message that decides an approval (with a fresh nonce).',
  fields: (t) => ({ statement: t.exposeString('statement'), resources: t.exposeStringList('resources'), domain: t.exposeString('domain') }),
});

const ApprovalRef = builder.objectRef<Approval>('Approval').implement({
  fields: (t) => ({
    approvalId: t.exposeString('id'),
    state: t.string({
      description: 'pending, approved, rejected, expired or consumed.',
      resolve: (a, _args, ctx) => effectiveState(a, ctx.services.clock.now()),
    }),
    instructionHash: t.exposeString('instructionHash'),
    instruction: t.field({ type: 'JSONObject', resolve: (a) => a.instruction }),
    wallet: t.exposeString('wallet'),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (a) => a.expiresAt }),
    decidedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.decidedAt }),
    consumedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.consumedAt }),
    executionId: t.exposeString('executionId', { nullable: true }),
    approveRequest: t.field({
      type: SigningRequestRef,
      resolve: (a, _args, ctx) => ({
        ...ctx.services.execution.approvals.signingRequest(a, 'approve'),
        domain: ctx.services.execution.wallets.settings.domain,
      }),
    }),
    rejectRequest: t.field({
      type: SigningRequestRef,
      resolve: (a, _args, ctx) => ({ ...ctx.services.execution.approvals.signingRequest(a, 'reject'), domain: ctx.services.execution.wallets.settings.domain }),
    }),
  }),
});

const ExecutionStateEnum = builder.enumType('ExecutionState', { values: EXECUTION_STATES });

const FillRef = builder.objectRef<Fill>('Fill').implement({
  fields: (t) => ({
    price: t.field({ type: 'Decimal', resolve: (f) => f.price }),
    filledAmount: t.field({ type: 'Decimal', resolve: (f) => f.filledAmount }),
    requestedAmount: t.field({ type: 'Decimal', resolve: (f) => f.requestedAmount }),
    notional: t.field({ type: 'Decimal', resolve: (f) => f.notional }),
    fee: t.field({ type: 'Decimal', resolve: (f) => f.fee }),
    feeToken: t.exposeString('feeToken'),
  }),
});

const StateChangeRef = builder.objectRef<Execution['history'][number]>('ExecutionStateChange').implement({
  fields: (t) => ({
    state: t.field({ type: ExecutionStateEnum, resolve: (h) => h.state }),
    at: t.field({ type: 'DateTime', resolve: (h) => h.at }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const ExecutionRef = builder.objectRef<Execution & { replayed?: boolean }>('Execution').implement({
  fields: (t) => ({
    executionId: t.exposeString('id'),
    referenceId: t.exposeString('referenceId'),
    instructionHash: t.exposeString('instructionHash'),
    protocol: t.exposeString('protocol'),
    action: t.exposeString('action'),
    state: t.field({ type: ExecutionStateEnum, resolve: (e) => e.state }),
    principalKind: t.string({ resolve: (e) => e.principal.kind }),
    approvalId: t.exposeString('approvalId', { nullable: true }),
    agentSessionId: t.exposeString('agentSessionId', { nullable: true }),
    fill: t.field({ type: FillRef, nullable: true, resolve: (e) => e.fill }),
    reason: t.exposeString('reason', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (e) => e.updatedAt }),
    history: t.field({ type: [StateChangeRef], resolve: (e) => e.history }),
    replayed: t.boolean({ resolve: (e) => e.replayed ?? false }),
  }),
});

const AgentSessionRef = builder.objectRef<AgentSession>('AgentSession').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    apiKeyId: t.exposeString('apiKeyId'),
    protocols: t.exposeStringList('protocols'),
    actions: t.exposeStringList('actions'),
    assets: t.exposeStringList('assets'),
    maxOrderNotional: t.field({ type: 'Decimal', resolve: (s) => s.maxOrderNotional }),
    maxPeriodNotional: t.field({ type: 'Decimal', resolve: (s) => s.maxPeriodNotional }),
    periodSeconds: t.exposeInt('periodSeconds'),
    startsAt: t.field({ type: 'DateTime', resolve: (s) => s.startsAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.revokedAt }),
    active: t.boolean({ resolve: (s, _a, ctx) => s.revokedAt === null && s.startsAt <= ctx.services.clock.now() && ctx.services.clock.now() < s.expiresAt }),
  }),
});

const NonceRef = builder.objectRef<{ nonce: string; expiresAt: number; domain: string }>('SiweNonce').implement({
  fields: (t) => ({ nonce: t.exposeString('nonce'), domain: t.exposeString('domain'), expiresAt: t.field({ type: 'DateTime', resolve: (n) => n.expiresAt }) }),
});

const WalletSessionRef = builder.objectRef<{ sessionToken: string; accountId: string; wallet: string; expiresAt: number }>('WalletSessionGrant').implement({
  fields: (t) => ({
    sessionToken: t.exposeString('sessionToken', { description: 'Send as Authorization: Bearer <sessionToken>.' }),
    accountId: t.exposeString('accountId'),
    wallet: t.exposeString('wallet'),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
  }),
});

const AuditEntryRef = builder.objectRef<AuditEntry>('AuditEntry').implement({
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    type: t.exposeString('type'),
    referenceId: t.exposeString('referenceId', { nullable: true }),
    details: t.field({ type: 'JSONObject', resolve: (e) => e.details }),
    prevHash: t.exposeString('prevHash'),
    hash: t.exposeString('hash'),
  }),
});

const AuditLogRef = builder.objectRef<{ entries: AuditEntry[]; valid: boolean; brokenAt: number | null }>('AuditLog').implement({
  fields: (t) => ({
    entries: t.field({ type: [AuditEntryRef], resolve: (l) => l.entries }),
    chainValid: t.exposeBoolean('valid'),
    brokenAt: t.exposeInt('brokenAt', { nullable: true }),
  }),
});

const ReasonRef = builder.objectRef<{ id: string; reason: string | null }>('ControlReason').implement({
  fields: (t) => ({ id: t.exposeString('id'), reason: t.exposeString('reason', { nullable: true }) }),
});

const ControlsRef = builder.objectRef<ControlsState>('OperatorControls').implement({
  fields: (t) => ({
    executionEnabled: t.exposeBoolean('executionEnabled'),
    killSwitchEngaged: t.boolean({ resolve: (c) => c.killSwitch.engaged }),
    killSwitchReason: t.string({ nullable: true, resolve: (c) => c.killSwitch.reason }),
    disabledProtocols: t.field({ type: [ReasonRef], resolve: (c) => c.disabledProtocols.map((d) => ({ id: d.protocolId, reason: d.reason })) }),
    circuitBreakers: t.field({ type: [ReasonRef], resolve: (c) => c.circuitBreakers.map((d) => ({ id: d.sourceId, reason: d.reason })) }),
  }),
});

const RevokedKeyRef = builder.objectRef<{ keyId: string; revokedAt: string | null }>('RevokedApiKey').implement({
  fields: (t) => ({ keyId: t.exposeString('keyId'), revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (k) => k.revokedAt }) }),
});

export { ApprovalRef, ExecutionRef };

const instructionArgs = (t: any) => ({
  protocol: t.arg.string({ required: true }),
  action: t.arg.string({ required: true }),
  assetIn: t.arg({ type: AssetInInput, required: true }),
  metadata: t.arg({ type: MetadataInput }),
  referenceId: t.arg.string({ required: true, description: 'Client-supplied, unique per execution request; the idempotency key.' }),
});

builder.mutationType({
  fields: (t) => ({
    createSiweNonce: t.field({
      type: NonceRef,
      description: 'POST /api/v1/auth/siwe/nonce',
      resolve: (_r, _a, ctx) => ctx.services.execution.wallets.issueNonce(),
    }),
    verifySiwe: t.field({
      type: WalletSessionRef,
      description: 'POST /api/v1/auth/siwe/verify',
      args: { message: t.arg.string({ required: true }), signature: t.arg.string({ required: true }) },
      resolve: (_r, a, ctx) => ctx.services.execution.wallets.signIn(a.message, a.signature),
    }),
    signOut: t.field({
      type: 'Boolean',
      description: 'DELETE /api/v1/auth/session (wallet session): ends every wallet session of the account',
      authScopes: { walletSession: true },
      resolve: async (_r, _a, ctx) => {
        const principal = await principalOf(ctx);
        await ctx.services.execution.wallets.revokeAll(principal.account.id);
        await ctx.services.execution.audit.record(principal.account.id, 'wallet_sessions_revoked', null, {});
        return true;
      },
    }),
    previewExecution: t.field({
      type: PreviewRef,
      description: 'POST /api/v1/execute/preview (scope execute:preview)',
      authScopes: { 'execute:preview': true },
      args: instructionArgs(t),
      resolve: async (_r, a, ctx) => {
        const { preview, replayed } = await ctx.services.execution.previews.preview(await principalOf(ctx), a);
        markReplayed(ctx, replayed);
        return { ...preview, replayed };
      },
    }),
    createApproval: t.field({
      type: ApprovalRef,
      description: 'POST /api/v1/execute/approvals (wallet session)',
      authScopes: { walletSession: true },
      args: instructionArgs(t),
      resolve: async (_r, a, ctx) => ctx.services.execution.approvals.create(await principalOf(ctx), a),
    }),
    decideApproval: t.field({
      type: ApprovalRef,
      description: 'PATCH /api/service/ai/approvals/{approvalId} (wallet session and a fresh signature)',
      authScopes: { walletSession: true },
      args: {
        approvalId: t.arg.string({ required: true }),
        decision: t.arg.string({ required: true, description: 'approve or reject' }),
        message: t.arg.string({ required: true, description: 'EIP-4361 message with a fresh nonce, the statement and resources of the signing request.' }),
        signature: t.arg.string({ required: true }),
      },
      resolve: async (_r, a, ctx) => {
        if (a.decision !== 'approve' && a.decision !== 'reject')
          throw new GatewayError(400, 'invalid_request', "'decision' must be approve or reject", { details: { field: 'decision' }, retryable: false });
        return ctx.services.execution.approvals.decide(await principalOf(ctx), a.approvalId, a.decision, a.message, a.signature);
      },
    }),
    execute: t.field({
      type: ExecutionRef,
      description: 'POST /api/v1/execute (scope execute:live)',
      // Authority that cannot be read (shared state down) fails closed as POLICY_UNAVAILABLE.
      authScopes: async (_r, _a, ctx) => {
        try {
          await ctx.auth.resolve();
        } catch (e) {
          if (isPolicyStoreOutage(e)) throw policyUnavailable();
          throw e;
        }
        return { 'execute:live': true };
      },
      args: { ...instructionArgs(t), approvalId: t.arg.string({ description: 'The one-time approval (interactive clients).' }) },
      resolve: async (_r, a, ctx) => {
        const { execution, replayed } = await ctx.services.execution.executions.execute(await principalOf(ctx), a as Record<string, unknown>);
        markReplayed(ctx, replayed);
        return { ...execution, replayed };
      },
    }),
    activateAgentSession: t.field({
      type: AgentSessionRef,
      description: 'POST /api/v1/agent-sessions (wallet session)',
      authScopes: { walletSession: true },
      args: {
        apiKeyId: t.arg.string({ required: true }),
        protocols: t.arg.stringList({ required: true }),
        actions: t.arg.stringList({ required: true }),
        assets: t.arg.stringList({ required: true }),
        maxOrderNotional: t.arg.string({ required: true, description: 'USD per order, decimal string.' }),
        maxPeriodNotional: t.arg.string({ required: true, description: 'USD per period, decimal string.' }),
        periodSeconds: t.arg.int({ required: true }),
        startsAt: t.arg.string(),
        expiresAt: t.arg.string({ required: true }),
      },
      resolve: async (_r, a, ctx) => ctx.services.execution.agentSessions.activate(await principalOf(ctx), a),
    }),
    revokeAgentSession: t.field({
      type: AgentSessionRef,
      description: 'DELETE /api/v1/agent-sessions/{sessionId}',
      authScopes: { authenticated: true },
      args: { sessionId: t.arg.string({ required: true }) },
      resolve: async (_r, a, ctx) => ctx.services.execution.agentSessions.revoke(await principalOf(ctx), a.sessionId),
    }),
    revokeApiKey: t.field({
      type: RevokedKeyRef,
      description: 'DELETE /api/v1/keys/{keyId} (wallet session)',
      authScopes: { walletSession: true },
      args: { keyId: t.arg.string({ required: true }) },
      resolve: async (_r, a, ctx) => {
        const principal = await principalOf(ctx);
        const key = await ctx.services.identities.getKey(a.keyId);
        if (!key || key.accountId !== principal.account.id)
          throw new GatewayError(404, 'api_key_not_found', `No key ${a.keyId} for this account.`, { retryable: false });
        const revoked = await ctx.services.identities.revokeKey(a.keyId, new Date(ctx.services.clock.now()).toISOString());
        await ctx.services.execution.audit.record(principal.account.id, 'api_key_revoked', null, { keyId: a.keyId });
        return { keyId: a.keyId, revokedAt: revoked?.revokedAt ?? null };
      },
    }),
    updateOperatorControls: t.field({
      type: ControlsRef,
      description: 'PATCH /api/v1/operator/controls (operator token)',
      authScopes: { operator: true },
      args: {
        executionEnabled: t.arg.boolean(),
        killSwitch: t.arg.boolean(),
        reason: t.arg.string(),
        protocolId: t.arg.string(),
        protocolEnabled: t.arg.boolean(),
        breakerSourceId: t.arg.string(),
        breakerOpen: t.arg.boolean(),
        certificationProtocol: t.arg.string(),
        certificationAction: t.arg.string(),
        certificationState: t.arg.string(),
      },
      resolve: (_r, a, ctx) => applyControlChange(ctx, a),
    }),
  }),
});

builder.queryFields((t) => ({
  approval: t.field({
    type: ApprovalRef,
    description: 'GET /api/v1/execute/approvals/{approvalId}',
    authScopes: { authenticated: true },
    args: { approvalId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => ctx.services.execution.approvals.get((await principalOf(ctx)).account.id, a.approvalId),
  }),
  execution: t.field({
    type: ExecutionRef,
    description: 'GET /api/v1/execute/executions/{executionId}',
    authScopes: { authenticated: true },
    args: { executionId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => ctx.services.execution.executions.get((await principalOf(ctx)).account.id, a.executionId),
  }),
  executionByReference: t.field({
    type: ExecutionRef,
    description: 'GET /api/v1/execute/references/{referenceId}',
    authScopes: { authenticated: true },
    args: { referenceId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => ctx.services.execution.executions.byReference((await principalOf(ctx)).account.id, a.referenceId),
  }),
  agentSessions: t.field({
    type: [AgentSessionRef],
    description: 'GET /api/v1/agent-sessions',
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => ctx.services.execution.agentSessions.list((await principalOf(ctx)).account.id),
  }),
  auditLog: t.field({
    type: AuditLogRef,
    description: 'GET /api/v1/audit',
    authScopes: { authenticated: true },
    args: { limit: t.arg.int({ description: '1 to 1000, default 100.' }) },
    resolve: async (_r, a, ctx) => {
      const limit = a.limit ?? 100;
      if (limit < 1 || limit > 1000)
        throw new GatewayError(400, 'invalid_request', "'limit' must be an integer from 1 to 1000", { details: { field: 'limit' }, retryable: false });
      return ctx.services.execution.audit.read((await principalOf(ctx)).account.id, limit);
    },
  }),
  operatorControls: t.field({
    type: ControlsRef,
    description: 'GET /api/v1/operator/controls (operator token)',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.controls.state(),
  }),
}));
