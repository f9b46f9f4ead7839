import { Decimal } from '../domain/decimal.js';
import type { Account } from '../auth/identity.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ExecutionDeps } from './execution-deps.js';
import type { Execution } from './execution-types.js';
import { advance, auditExecution, OUTCOME_UNKNOWN, parseVenueOrder, settleSpend, type VenueOrderRecord } from './execution-progress.js';
import type { ExecutionInstruction } from './instruction.js';
import type { ExecutionTarget } from './target.js';
import type { Quote, VenueContext } from './venues/execution-venue.js';
import { isRoutedVenue, slippageBound, VenueRefusal, type RoutedOrder, type RoutedVenue } from './venues/routed-venue.js';
import { applyVenueOrder, executionStateOf, withOrderLock } from './routed-orders.js';
import { venueRefused } from '../errors/venue-refusals.js';

const negated = (changes: Record<string, string>) => Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, new Decimal(v).neg().toString()]));

export interface Submission {
  execution: Execution;
  account: Account;
  instruction: ExecutionInstruction;
  target: ExecutionTarget;
  /** What the fill honours: the previewed quote (the swap's minAmountOut), not a re-quote. */
  quote: Quote;
  mayGoNegative: readonly string[];
  venueCtx: VenueContext;
}

/**
 * Sends a submitted execution to its paper venue and books the result under the execution id,
 * the client order id. Once this starts the outcome may be unknown: a venue error or a store
 * outage leaves the execution `unknown` for the reconciler, and the answer says so. Once the
 * booking is made its outcome is the truth, answered even if recording it fails (the
 * reconciler records it from the venue's record).
 */
export async function submitToVenue(deps: ExecutionDeps, s: Submission): Promise<Execution> {
  if (isRoutedVenue(s.target.venue)) return routeToVenue(deps, s, s.target.venue);
  const { execution } = s;
  let outcome: VenueOrderRecord;
  try {
    outcome = await book(deps, s);
  } catch (err) {
    const outage = err instanceof GatewayError && err.code === 'shared_state_unavailable';
    deps.logger.error(
      { err, executionId: execution.id },
      outage
        ? 'shared state (Redis) unreachable while submitting; outcome unknown, left to the reconciler'
        : 'venue failed during submission; outcome unknown, left to the reconciler',
    );
    await advance(deps, execution, 'unknown', OUTCOME_UNKNOWN).catch(() => undefined);
    // The answer is unknown whether or not the store took the state (the reconciler decides).
    if (execution.state !== 'unknown') Object.assign(execution, { state: 'unknown', reason: OUTCOME_UNKNOWN });
    return execution;
  }
  execution.fill = outcome.state === 'void' ? null : outcome.fill;
  const state = outcome.state === 'void' ? 'failed' : outcome.state;
  try {
    await settleSpend(deps, { ...execution, state });
    await advance(deps, execution, state, outcome.reason);
    await auditExecution(deps, execution);
  } catch (err) {
    deps.logger.error({ err, executionId: execution.id }, 'store unreachable after the venue booked the order; the reconciler records it');
    if (execution.state !== state) Object.assign(execution, { state, reason: outcome.reason });
  }
  return execution;
}

async function book(deps: ExecutionDeps, s: Submission): Promise<VenueOrderRecord> {
  const { execution: e, instruction, target, venueCtx } = s;
  const fill = await target.venue.fill(instruction, s.quote, venueCtx);
  const rejected = (reason: string | null): VenueOrderRecord => ({ state: 'rejected', fill: null, reason });
  const bookRecord = async (record: VenueOrderRecord, changes: Record<string, string>, replacing?: string) => {
    const raw = JSON.stringify(record);
    // An undo only gives back what the fill took: any key may pass zero on the way.
    const mayGoNegative = replacing ? Object.keys(changes) : s.mayGoNegative;
    const result = await deps.ledger.book(e.accountId, e.id, { changes, mayGoNegative, record: raw, ...(replacing ? { replacing } : {}) });
    return { result, raw };
  };
  if (fill.state === 'rejected') return settled(await bookRecord(rejected(fill.reason), {}));
  const filled: VenueOrderRecord = { state: fill.state, fill: fill.fill, reason: fill.reason };
  const first = await bookRecord(filled, fill.changes);
  if (!first.result.booked && first.result.existing === undefined) {
    const { token, available, required } = first.result.short;
    return settled(await bookRecord(rejected(`Insufficient ${token} at fill: ${available} available, ${required} needed.`), {}));
  }
  if (!first.result.booked) return settled(first);
  const breach = target.venue.afterFill ? await target.venue.afterFill(instruction, { ...venueCtx, balances: await deps.ledger.balancesOf(s.account) }) : null;
  if (!breach) return filled;
  // A concurrent order got in first: undo this one rather than leave the account in breach.
  return settled(await bookRecord(rejected(breach), negated(fill.changes), first.raw));
}

/** The record the venue now holds for the order: ours when booked, else the one already there. */
function settled({ result, raw }: { result: Awaited<ReturnType<ExecutionDeps['ledger']['book']>>; raw: string }): VenueOrderRecord {
  if (result.booked) return parseVenueOrder(raw);
  if (result.existing !== undefined) return parseVenueOrder(result.existing);
  throw new Error('a booking without ledger changes cannot be short');
}

/** The order a routed execution sends: what the preview priced, under the client order id of its referenceId. */
function routedOrder(venue: RoutedVenue, s: Submission): RoutedOrder {
  const { execution: e, instruction, quote } = s;
  const market = venue.marketFor(instruction);
  const type = instruction.metadata?.type ?? 'market';
  const side = (quote.side ?? instruction.metadata?.side ?? 'buy') as 'buy' | 'sell';
  let price: string | null = type === 'limit' ? (instruction.metadata?.price ?? null) : null;
  if (type === 'market' && quote.price !== null) price = slippageBound(quote.price, side, instruction.metadata?.slippageBps);
  return {
    clientOrderId: venue.clientOrderIdFor(e.accountId, e.referenceId),
    accountId: e.accountId,
    market,
    side,
    amount: quote.amount,
    type,
    price,
    timeInForce: instruction.metadata?.timeInForce ?? (type === 'limit' ? 'gtc' : 'ioc'),
    instruction,
    quote,
  };
}

/**
 * Sends a submitted execution to its real venue under the client order id of its referenceId
 * (stored before it is sent, so the reconciler can always ask the venue about it), then moves
 * the execution to what the venue answered: open, partially filled, filled, cancelled. A venue's
 * refusal (nothing placed) is the matching public code with the venue's reason; no answer (a
 * timeout after sending, a cut connection) leaves it `unknown` for the reconciler to look up.
 */
async function routeToVenue(deps: ExecutionDeps, s: Submission, venue: RoutedVenue): Promise<Execution> {
  const { execution } = s;
  const order = routedOrder(venue, s);
  try {
    execution.order = {
      clientOrderId: order.clientOrderId,
      marketId: order.market.id,
      side: order.side,
      amount: order.amount,
      venueOrderId: null,
      resting: false,
    };
    await deps.executions.update(execution);
  } catch (err) {
    // Not sent, and the store did not take the order's id: nothing reached the venue.
    deps.logger.error({ err, executionId: execution.id }, 'store unreachable before the order was sent; the reconciler ends it');
    throw err;
  }
  let answer;
  try {
    answer = await venue.place(order);
  } catch (err) {
    if (err instanceof VenueRefusal) {
      await refusedByVenue(deps, execution, venue, err);
      throw venueRefused(err.code, venue.protocolId, err.reason, {
        executionId: execution.id,
        ...(err.options.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.options.retryAfterSeconds } : {}),
      });
    }
    deps.logger.error(
      { err: err instanceof Error ? err.message : String(err), executionId: execution.id },
      'venue gave no answer to the order; outcome unknown, looked up by client order id',
    );
    await advance(deps, execution, 'unknown', OUTCOME_UNKNOWN).catch(() => undefined);
    if (execution.state !== 'unknown') Object.assign(execution, { state: 'unknown', reason: OUTCOME_UNKNOWN });
    return execution;
  }
  try {
    return await withOrderLock(deps, execution.id, async (stored) => {
      await applyVenueOrder(deps, stored, answer, { placed: true });
      return stored;
    });
  } catch (err) {
    // The venue holds the order; the stream or the reconciler records it from the venue's record.
    deps.logger.error({ err, executionId: execution.id }, 'store unreachable after the venue took the order; its record will be read back from the venue');
    const { state, resting } = executionStateOf(answer);
    Object.assign(execution, { state, order: { ...execution.order, resting } });
    return execution;
  }
}

/** The venue refused the order: nothing was placed, the execution ends rejected with the venue's reason. */
async function refusedByVenue(deps: ExecutionDeps, execution: Execution, venue: RoutedVenue, refusal: VenueRefusal): Promise<void> {
  try {
    await settleSpend(deps, { ...execution, state: 'rejected' });
    await advance(deps, execution, 'rejected', `${venue.protocolId} refused the order: ${refusal.reason}`);
    await auditExecution(deps, execution, { venue: venue.protocolId, venueRefusal: refusal.code, clientOrderId: execution.order?.clientOrderId });
  } catch (err) {
    deps.logger.error({ err, executionId: execution.id }, 'store unreachable recording a venue refusal; the reconciler records it');
  }
}
