import { Decimal } from '../domain/decimal.js';
import type { MarketDefinition } from '../domain/market.js';
import type { ExecutionDeps } from './execution-deps.js';
import { advance, auditExecution, settleSpend } from './execution-progress.js';
import { isSettled, type Execution, type ExecutionState, type Fill } from './execution-types.js';
import type { RoutedOrderState, RoutedVenue } from './venues/routed-venue.js';
import { isRoutedVenue } from './venues/routed-venue.js';

/** How long an order-state update holds its execution's lock in the store at most (a replica that died holding it). */
const LOCK_TTL_MS = 10_000;
/** Tries at the store's lock while another replica holds it, pausing 5 ms, then twice as long each time up to 50 ms: about 2 s in all. */
const LOCK_TRIES = 40;
const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 50;

/**
 * This process's updates of each execution, by store, queued one after another: the submission and
 * the order stream on one replica (the venue streams an order's state as it answers the order)
 * follow each other at once instead of one polling for the other's store lock.
 */
const localTurns = new WeakMap<object, Map<string, Promise<unknown>>>();

/** The routed venue of an execution's protocol, if its orders live at a real venue. */
export function routedVenueOf(deps: Pick<ExecutionDeps, 'venues'>, protocol: string): RoutedVenue | undefined {
  const venue = deps.venues.get(protocol);
  return venue && isRoutedVenue(venue) ? venue : undefined;
}

/** The market a routed execution trades, as the directory lists it now (undefined once delisted). */
export function routedMarketOf(deps: Pick<ExecutionDeps, 'reader'>, e: Execution): MarketDefinition | undefined {
  return e.order ? deps.reader.directory.resolve(e.order.marketId) : undefined;
}

/** The execution state a venue's order state means, and whether part of it still rests there. */
export function executionStateOf(s: RoutedOrderState): { state: ExecutionState; resting: boolean } {
  const filled = new Decimal(s.filledAmount).gt(0);
  switch (s.status) {
    case 'open':
      return { state: filled ? 'partially_filled' : 'open', resting: true };
    case 'partially_filled':
      return { state: 'partially_filled', resting: true };
    case 'filled':
      return { state: 'filled', resting: false };
    case 'cancelled':
      return { state: 'cancelled', resting: false };
    case 'rejected':
      return { state: 'rejected', resting: false };
  }
}

/** The fill a venue's order state reports so far (null while nothing filled), in the execution's terms. */
export function fillOf(s: RoutedOrderState, requestedAmount: string): Fill | null {
  const filled = new Decimal(s.filledAmount);
  if (filled.lte(0) || s.averagePrice === null) return null;
  return {
    price: s.averagePrice,
    filledAmount: s.filledAmount,
    requestedAmount,
    notional: filled.times(s.averagePrice).toString(),
    fee: s.fee,
    feeToken: s.feeToken,
  };
}

/** How far along an execution's order is: a venue's update only ever moves it forward. */
function rank(e: Pick<Execution, 'state' | 'order'>): number {
  if (isSettled(e)) return 3;
  if (e.state === 'partially_filled') return 2;
  if (e.state === 'open') return 1;
  return 0; // accepted, submitted, unknown: any answer of the venue is news
}

/** Another update of the same execution held its order lock for longer than an update waits. */
export class OrderBusy extends Error {
  constructor(readonly executionId: string) {
    super(`execution ${executionId} is being updated elsewhere`);
    this.name = 'OrderBusy';
  }
}

/**
 * Runs `update` on the execution as stored, one update at a time per execution (the submission,
 * the order stream, the reconciler and a cancel may each bring news of the same order): in this
 * process in turn, across replicas by a lock in the store, which it tries `tries` times (about 2 s
 * by default) before giving up with OrderBusy. `tries: 0` never waits, here or at the store.
 */
export async function withOrderLock<T>(
  deps: ExecutionDeps,
  executionId: string,
  update: (e: Execution) => Promise<T>,
  options: { tries?: number } = {},
): Promise<T> {
  let turns = localTurns.get(deps.idempotency);
  if (!turns) localTurns.set(deps.idempotency, (turns = new Map()));
  const before = turns.get(executionId);
  if (before && options.tries === 0) throw new OrderBusy(executionId);
  const mine = (before ?? Promise.resolve()).then(() => underStoreLock(deps, executionId, update, options.tries ?? LOCK_TRIES));
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(executionId, done);
  void done.then(() => {
    if (turns.get(executionId) === done) turns.delete(executionId);
  });
  return mine;
}

async function underStoreLock<T>(deps: ExecutionDeps, executionId: string, update: (e: Execution) => Promise<T>, tries: number): Promise<T> {
  const lock = `order:${executionId}`;
  const holder = `update_${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0, pause = FIRST_PAUSE_MS; ; attempt++, pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    let claim;
    try {
      claim = await deps.idempotency.claim(lock, holder, LOCK_TTL_MS);
    } catch (err) {
      // The claim may have been taken with its answer lost: give it back rather than hold it till its TTL.
      await deps.idempotency.release(lock, holder).catch(() => undefined);
      throw err;
    }
    if (claim.claimed) break;
    if (attempt >= tries) throw new OrderBusy(executionId);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  try {
    const e = await deps.executions.get(executionId);
    if (!e) throw new Error(`execution ${executionId} is gone`);
    return await update(e);
  } finally {
    await deps.idempotency.release(lock, holder).catch(() => undefined);
  }
}

/**
 * Moves an execution to what its venue says of the order, when that is news (a later state, or
 * more filled): its state, fill and resting flag are stored, subscribers told, the audit chain
 * extended, and a settled one's agent-session spend set to what filled. Returns whether it moved.
 */
export async function applyVenueOrder(deps: ExecutionDeps, e: Execution, s: RoutedOrderState, extra: Record<string, unknown> = {}): Promise<boolean> {
  if (!e.order) return false;
  const { state, resting } = executionStateOf(s);
  const next = { state, order: { ...e.order, resting } };
  const filledBefore = new Decimal(e.fill?.filledAmount ?? '0');
  const moreFilled = new Decimal(s.filledAmount).gt(filledBefore);
  if (state === e.state && new Decimal(s.filledAmount).eq(filledBefore)) return correctFill(deps, e, s, extra);
  if (rank(next) < rank(e) || (rank(next) === rank(e) && !moreFilled && state === e.state)) return false;
  if (isSettled(e)) return false;
  e.order = { ...e.order, resting, venueOrderId: s.venueOrderId ?? e.order.venueOrderId };
  e.fill = fillOf(s, e.order.amount) ?? e.fill;
  const reason = s.reason ?? (resting ? 'Resting at the venue.' : null);
  if (isSettled({ state, order: e.order })) await settleSpend(deps, { ...e, state });
  await advance(deps, e, state, reason);
  await auditExecution(deps, e, { venue: e.protocol, clientOrderId: e.order.clientOrderId, venueOrderId: e.order.venueOrderId, ...extra });
  return true;
}

/**
 * The venue's fills reported after the state they belong to (an immediate fill whose fills could
 * not be read when it was answered: its fee unknown as 0, its price the order's): the same state
 * and size, now with the fills' fees and average price. The execution's fill takes them (its
 * agent-session spend follows the notional), subscribers are told and the audit chain says so;
 * nothing else moves. Only a report that carries fees corrects: one without (a look-up whose fills
 * read failed, an update older than the fills) never undoes what the fills said.
 */
async function correctFill(deps: ExecutionDeps, e: Execution, s: RoutedOrderState, extra: Record<string, unknown>): Promise<boolean> {
  const fill = e.order ? fillOf(s, e.order.amount) : null;
  if (!fill || !e.fill || new Decimal(fill.fee).lte(0)) return false;
  const same = new Decimal(fill.fee).eq(e.fill.fee) && fill.feeToken === e.fill.feeToken && new Decimal(fill.price).eq(e.fill.price);
  if (same) return false;
  e.fill = fill;
  e.updatedAt = deps.clock.now();
  if (isSettled(e)) await settleSpend(deps, e);
  await deps.executions.update(e);
  deps.events.publish('execution:updated', structuredClone(e));
  await auditExecution(deps, e, {
    venue: e.protocol,
    clientOrderId: e.order!.clientOrderId,
    venueOrderId: e.order!.venueOrderId,
    fillReported: true,
    ...extra,
  });
  return true;
}
