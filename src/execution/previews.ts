import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticator.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ExecutionDeps } from './execution-deps.js';
import { PREVIEW_RECORD_TTL_MS, PREVIEW_TTL_MS } from './execution-deps.js';
import { createGateContext } from './gate-context.js';
import { block, gateError } from './gate-verdict.js';
import { allVerdicts } from './gates.js';
import { instructionHash, parseInstruction } from './instruction.js';
import type { StoredPreview } from './stored-preview.js';
import { resolveTarget } from './target.js';

export const previewKey = (accountId: string, referenceId: string) => `preview:${accountId}:${referenceId}`;

/**
 * POST /api/v1/execute/preview: a quote with expiry, fees, notional and the exact instruction
 * hash, plus every gate's verdict now. Idempotent by referenceId: the same body replays the
 * same preview while it is fresh; a different body is IDEMPOTENCY_CONFLICT.
 */
export class Previews {
  constructor(private readonly deps: ExecutionDeps) {}

  async find(accountId: string, referenceId: string): Promise<StoredPreview | undefined> {
    const record = await this.deps.idempotency.get(previewKey(accountId, referenceId));
    return record?.value ? (JSON.parse(record.value) as StoredPreview) : undefined;
  }

  /** Answered once what it recorded (the preview, a refusal's audit entry) is durable. */
  preview(principal: Principal, input: unknown): Promise<{ preview: StoredPreview; replayed: boolean }> {
    return this.deps.durability.together(() => this.previewNow(principal, input));
  }

  private async previewNow(principal: Principal, input: unknown): Promise<{ preview: StoredPreview; replayed: boolean }> {
    const { deps } = this;
    const account = principal.account;
    const instruction = parseInstruction(input);
    const target = resolveTarget(deps.protocols, deps.venues, instruction);
    const hash = instructionHash(instruction);
    const key = previewKey(account.id, instruction.referenceId);

    const claim = await deps.idempotency.claim(key, hash, PREVIEW_RECORD_TTL_MS);
    const held = claim.claimed ? undefined : claim.value ? (JSON.parse(claim.value) as StoredPreview) : undefined;
    // A preview kept past its expiry (for "expired at …" answers) no longer holds its referenceId.
    const expired = held !== undefined && held.expiresAt <= deps.clock.now();
    if (!claim.claimed && expired && claim.fingerprint !== hash) await deps.idempotency.release(key, claim.fingerprint);
    const reclaimed = !claim.claimed && expired && claim.fingerprint !== hash ? await deps.idempotency.claim(key, hash, PREVIEW_RECORD_TTL_MS) : claim;
    if (!reclaimed.claimed) {
      if (reclaimed.fingerprint !== hash) {
        await deps.audit.record(account.id, 'preview_refused', instruction.referenceId, { code: 'IDEMPOTENCY_CONFLICT', instructionHash: hash });
        throw gateError(block('idempotency', 'IDEMPOTENCY_CONFLICT', 'preview_reference', 'This referenceId was previewed with a different instruction.'));
      }
      const stored = reclaimed.value ? (JSON.parse(reclaimed.value) as StoredPreview) : undefined;
      if (!stored) throw gateError(block('idempotency', 'IDEMPOTENCY_CONFLICT', 'preview_in_progress', 'A preview with this referenceId is in progress.'));
      // A fresh preview replays; an expired one (its record not yet evicted) is quoted anew below.
      if (stored.expiresAt > deps.clock.now()) return { preview: stored, replayed: true };
    }

    try {
      const now = deps.clock.now();
      const ctx = createGateContext(deps, {
        mode: 'preview',
        principal,
        account,
        instruction,
        hash,
        target,
        now,
        findPreview: async () => undefined,
      });
      const gates = await allVerdicts(ctx);
      const quote = ctx.pricedSoFar()?.quote ?? null;
      const preview: StoredPreview = {
        id: `prv_${randomUUID()}`,
        accountId: account.id,
        referenceId: instruction.referenceId,
        instructionHash: hash,
        instruction,
        quote,
        gates,
        // Every gate passes and the venue's simulation fills something (a limit that does not cross would be cancelled).
        executable: gates.every((g) => g.status === 'pass') && quote?.expectedFill?.state !== 'rejected',
        createdAt: now,
        expiresAt: now + PREVIEW_TTL_MS,
      };
      await deps.idempotency.complete(key, hash, JSON.stringify(preview), PREVIEW_RECORD_TTL_MS);
      await deps.audit.record(account.id, 'preview', instruction.referenceId, {
        previewId: preview.id,
        instructionHash: hash,
        executable: preview.executable,
        blockedBy: gates.filter((g) => g.status === 'block').map((g) => g.code),
      });
      return { preview, replayed: false };
    } catch (e) {
      await deps.idempotency.release(key, hash);
      await deps.audit.record(account.id, 'preview_refused', instruction.referenceId, {
        code: e instanceof GatewayError ? e.code : 'internal_error',
        instructionHash: hash,
      });
      throw e;
    }
  }
}
