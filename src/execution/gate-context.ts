import type { Principal } from '../auth/authenticator.js';
import type { Account } from '../auth/identity.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ActionDefinition, ProtocolDefinition } from '../protocols/protocol.js';
import type { ExecutionDeps } from './execution-deps.js';
import type { AgentSession, Approval, Execution } from './execution-types.js';
import type { GateCode } from '../errors/gate-refusals.js';
import { block, type GateName, type GateVerdict } from './gate-verdict.js';
import type { ExecutionInstruction } from './instruction.js';
import type { StoredPreview } from './stored-preview.js';
import type { ExecutionTarget } from './target.js';
import type { Quote } from './venues/execution-venue.js';

/** What a gate knows of a protocol action whatever the instruction (capabilities evaluate only this). */
export interface StandingContext {
  deps: ExecutionDeps;
  principal: Principal;
  protocol: ProtocolDefinition;
  action: ActionDefinition;
  now: number;
}

/** The venue's price of the instruction now, or the venue's refusal to price it. */
export type Priced = { quote: Quote; verdict?: undefined } | { quote?: undefined; verdict: GateVerdict };

/**
 * One instruction as every gate sees it, for a preview or an execution. What costs a read (the
 * quote, the ledger, the stored preview, an earlier execution) is read once, when a gate first
 * needs it, so an earlier block saves the later reads.
 */
export interface GateContext extends StandingContext {
  mode: 'preview' | 'execute';
  account: Account;
  instruction: ExecutionInstruction;
  /** SHA-256 of the canonical instruction (without approvalId). */
  hash: string;
  target: ExecutionTarget;
  /** The one-time approval an interactive submission carries. */
  approvalId: string | undefined;
  priced(): Promise<Priced>;
  /** The quote, if the venue gate asked for one already (a preview shows it). */
  pricedSoFar(): Priced | undefined;
  balances(): Promise<Record<string, string>>;
  storedPreview(): Promise<StoredPreview | undefined>;
  previousExecution(): Promise<Execution | undefined>;
  /** What the authority gate found to authorise the instruction. */
  authority: { approval?: Approval; session?: AgentSession };
}

export interface GateContextInput {
  mode: GateContext['mode'];
  principal: Principal;
  account: Account;
  instruction: ExecutionInstruction;
  hash: string;
  target: ExecutionTarget;
  approvalId?: string;
  now: number;
  findPreview(): Promise<StoredPreview | undefined>;
}

function once<T>(read: () => Promise<T>): { get(): Promise<T>; done(): T | undefined } {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    get: () => (pending ??= read().then((v) => (value = v))),
    done: () => value,
  };
}

export function createGateContext(deps: ExecutionDeps, input: GateContextInput): GateContext {
  const balances = once(() => deps.ledger.balancesOf(input.account));
  const priced = once(async (): Promise<Priced> => {
    try {
      return {
        quote: await input.target.venue.quote(input.instruction, {
          reader: deps.reader,
          cache: deps.cache,
          now: input.now,
          balances: await balances.get(),
          accountId: input.account.id,
        }),
      };
    } catch (e) {
      // A venue that cannot price right now counts as unhealthy, never as a crash.
      if (e instanceof GatewayError && e.status === 503) return { verdict: block('venue', 'VENUE_UNHEALTHY', 'venue_health', e.message) };
      throw e;
    }
  });
  const preview = once(input.findPreview);
  const previous = once(() => deps.executions.findByReference(input.account.id, input.instruction.referenceId));
  return {
    deps,
    mode: input.mode,
    principal: input.principal,
    account: input.account,
    instruction: input.instruction,
    hash: input.hash,
    target: input.target,
    protocol: input.target.protocol,
    action: input.target.action,
    approvalId: input.approvalId,
    now: input.now,
    priced: priced.get,
    pricedSoFar: priced.done,
    balances: balances.get,
    storedPreview: preview.get,
    previousExecution: previous.get,
    authority: {},
  };
}

/**
 * One gate of the execution pipeline (DESIGN: Execution). `evaluate` judges one instruction, for a
 * preview and an execution alike; `standing`, where a gate has one, judges what holds for every
 * instruction of a protocol action (capabilities show it). A gate's refusal carries one of `codes`.
 */
export interface Gate {
  readonly name: GateName;
  readonly codes: readonly GateCode[];
  standing?(ctx: StandingContext): Promise<GateVerdict> | GateVerdict;
  evaluate(ctx: GateContext): Promise<GateVerdict> | GateVerdict;
}
