import { createHash } from 'node:crypto';
import type { MarketDefinition } from '../../src/domain/market.js';
import type { ExecutionInstruction } from '../../src/execution/instruction.js';
import type { ExecutionVenue, Quote, VenueContext, VenueFill } from '../../src/execution/venues/execution-venue.js';
import {
  VenueOutcomeUnknown,
  VenueRefusal,
  type RoutedOrder,
  type RoutedOrderState,
  type RoutedVenue,
  type VenueAccount,
  type VenueReadiness,
} from '../../src/execution/venues/routed-venue.js';

/**
 * A routed venue kept in memory for the execution core's own tests: it prices with the paper
 * venue it wraps (so every gate sees real quotes) and holds orders by client order id as a real
 * venue does, resting until the test fills or cancels them, with an order stream. It stands in
 * for no real component: the real venues' adapters are tested through their SDKs against their
 * wire fakes; this one lets a test script the venue's side of the core's states.
 */
export class ScriptedRoutedVenue implements RoutedVenue {
  readonly routed = true;
  readonly orders = new Map<string, RoutedOrderState & { order: RoutedOrder }>();
  /** Every place() call, in order (a retry of the same client order id included). */
  readonly placed: string[] = [];
  private readonly followers = new Set<(s: RoutedOrderState) => void>();
  private next: { refuse?: VenueRefusal; noAnswer?: 'placed' | 'lost' } = {};
  alive = true;
  /** The gateway account the venue's account is bound to. */
  boundAccount = 'acct-1';
  /** What readiness() answers (the gateway asks now and then, not on every preview). */
  ready: VenueReadiness = { ready: true };

  constructor(private readonly paper: ExecutionVenue) {}

  get protocolId(): string {
    return this.paper.protocolId;
  }

  clientOrderIdFor(accountId: string, referenceId: string): string {
    return `0x${createHash('sha256').update(`scripted|${accountId}|${referenceId}`).digest('hex').slice(0, 32)}`;
  }

  marketFor(instruction: ExecutionInstruction): MarketDefinition {
    return this.paper.marketFor(instruction);
  }

  quote(instruction: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    return this.paper.quote(instruction, ctx);
  }

  fill(): Promise<VenueFill> {
    throw new Error('a routed venue places orders; it does not fill them on paper');
  }

  /** The next place() is refused (nothing placed). */
  refuseNext(code: VenueRefusal['code'], reason: string, retryAfterSeconds?: number): void {
    this.next.refuse = new VenueRefusal(code, reason, retryAfterSeconds === undefined ? {} : { retryable: true, retryAfterSeconds });
  }

  /** The next place() gives no answer: the venue took the order (`placed`) or never saw it (`lost`). */
  noAnswerNext(kind: 'placed' | 'lost'): void {
    this.next.noAnswer = kind;
  }

  async place(order: RoutedOrder): Promise<RoutedOrderState> {
    this.placed.push(order.clientOrderId);
    const { refuse, noAnswer } = this.next;
    this.next = {};
    if (refuse) throw refuse;
    const existing = this.orders.get(order.clientOrderId);
    if (existing) return strip(existing); // the venue refuses a second order of one client order id
    if (noAnswer === 'lost') throw new VenueOutcomeUnknown('no answer (the order was lost on the way)');
    const state: RoutedOrderState = {
      clientOrderId: order.clientOrderId,
      venueOrderId: `v-${this.orders.size + 1}`,
      status: 'open',
      filledAmount: '0',
      averagePrice: null,
      fee: '0',
      feeToken: 'USDC',
      reason: null,
      at: Date.now(),
    };
    this.orders.set(order.clientOrderId, { ...state, order });
    if (noAnswer === 'placed') throw new VenueOutcomeUnknown('no answer within the timeout');
    return state;
  }

  /**
   * The venue fills `amount` more of an order (all of it by default) at `price`, and streams it;
   * `feeUnknown`: the update says no fee (its fills not read yet), as a venue's order update can.
   */
  fillOrder(clientOrderId: string, amount?: string, price = '100', options: { feeUnknown?: boolean } = {}): RoutedOrderState {
    const o = this.orders.get(clientOrderId);
    if (!o) throw new Error(`no order ${clientOrderId}`);
    const filled = Number(o.filledAmount) + Number(amount ?? Number(o.order.amount) - Number(o.filledAmount));
    o.filledAmount = String(filled);
    o.averagePrice = price;
    o.fee = options.feeUnknown ? '0' : String(filled * Number(price) * 0.0005);
    o.status = filled >= Number(o.order.amount) ? 'filled' : 'partially_filled';
    o.at = Date.now();
    return this.publish(o);
  }

  /** The venue's fills of an order reported later: its fee (and average price) as they say, streamed. */
  reportFills(clientOrderId: string, fee: string, averagePrice?: string): RoutedOrderState {
    const o = this.orders.get(clientOrderId);
    if (!o) throw new Error(`no order ${clientOrderId}`);
    o.fee = fee;
    if (averagePrice !== undefined) o.averagePrice = averagePrice;
    return this.publish(o);
  }

  /** Streams `state` as the venue's update of its order, whatever the venue holds (an update that arrives late). */
  streamLate(state: RoutedOrderState): void {
    if (this.alive) for (const f of this.followers) f({ ...state });
  }

  async cancel(clientOrderId: string): Promise<RoutedOrderState> {
    const o = this.orders.get(clientOrderId);
    if (!o) throw new VenueRefusal('INVALID_REQUEST', 'unknown order');
    if (o.status === 'open' || o.status === 'partially_filled') {
      o.status = 'cancelled';
      o.reason = 'cancelled by the client';
      o.at = Date.now();
    }
    return this.publish(o);
  }

  async lookup(clientOrderId: string): Promise<RoutedOrderState | null> {
    const o = this.orders.get(clientOrderId);
    return o ? strip(o) : null;
  }

  follow(onUpdate: (s: RoutedOrderState) => void): () => void {
    this.followers.add(onUpdate);
    return () => this.followers.delete(onUpdate);
  }

  followAlive(): boolean {
    return this.alive;
  }

  async account(): Promise<VenueAccount> {
    return { account: 'scripted', available: { USDC: '1000000' }, equity: { USDC: '1000000' }, positions: [], at: Date.now() };
  }

  async readiness(): Promise<VenueReadiness> {
    return this.ready;
  }

  private publish(o: RoutedOrderState & { order: RoutedOrder }): RoutedOrderState {
    const state = strip(o);
    if (this.alive) for (const f of this.followers) f(state);
    return state;
  }
}

function strip(o: RoutedOrderState & { order?: RoutedOrder }): RoutedOrderState {
  const { order: _order, ...state } = o;
  return { ...state };
}
