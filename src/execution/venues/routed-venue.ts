import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import type { ExecutionInstruction } from '../instruction.js';
import type { ExecutionVenue, Quote } from './execution-venue.js';

/** How long an order rests: good till cancelled, post-only (add liquidity only), or immediate-or-cancel. */
export type TimeInForce = 'gtc' | 'alo' | 'ioc';

/** The default slippage bound of a market order at a venue without market orders (0.5 %). */
const DEFAULT_SLIPPAGE_BPS = 50;

/**
 * The worst price a market order accepts at a venue without market orders (sent as an
 * immediate-or-cancel limit): `price` moved against the order by the slippage bound.
 */
export function slippageBound(price: string, side: 'buy' | 'sell', slippageBps = DEFAULT_SLIPPAGE_BPS): string {
  const bound = new Decimal(slippageBps).div(10_000);
  return new Decimal(price).times(side === 'buy' ? bound.plus(1) : new Decimal(1).minus(bound)).toString();
}

/** An order as the gateway routes it to a real venue: what the preview priced, under its client order id. */
export interface RoutedOrder {
  /**
   * The client order id, derived from the account and the referenceId (the same every time for
   * one referenceId), so a retry after an unknown outcome can never place twice. Its form is the
   * venue's (Hyperliquid: a 0x-prefixed 16-byte hex `cloid`; Alpaca: up to 48 characters).
   */
  clientOrderId: string;
  accountId: string;
  market: MarketDefinition;
  side: 'buy' | 'sell';
  /** Base units, as a decimal string within the venue's size decimals. */
  amount: string;
  /** `market` is sent as the venue does it (Hyperliquid: an IOC limit bounded by the slippage; Alpaca: a market order). */
  type: 'market' | 'limit';
  /** The limit price (a limit order), or the slippage-bounded worst price (a market order on a venue without market orders). */
  price: string | null;
  timeInForce: TimeInForce;
  instruction: ExecutionInstruction;
  quote: Quote;
}

/** The venue's own state of one order. */
export type RoutedOrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'rejected';

/** The venue's record of one order (what it answered, or what its order stream or a lookup said). */
export interface RoutedOrderState {
  clientOrderId: string;
  /** The venue's own id of the order (Hyperliquid `oid`, Alpaca `id`), when it gave one. */
  venueOrderId: string | null;
  status: RoutedOrderStatus;
  /** Base units filled so far ('0' when none). */
  filledAmount: string;
  /** The average fill price, when anything filled. */
  averagePrice: string | null;
  /** Fees the venue charged so far, in `feeToken`, as its fills report them. */
  fee: string;
  feeToken: string;
  /** The venue's reason for a refusal or a cancel, in its words (kept in `details`). */
  reason: string | null;
  /** The venue's time of this state (epoch ms). */
  at: number;
}

/**
 * The venue refused the order (or a cancel): never placed. `code` is the public code it maps to
 * (INSUFFICIENT_BALANCE, VENUE_UNHEALTHY, INVALID_REQUEST, …) and `reason` the venue's own words.
 */
export class VenueRefusal extends Error {
  constructor(
    readonly code: 'INSUFFICIENT_BALANCE' | 'VENUE_UNHEALTHY' | 'POLICY_DENIED' | 'INVALID_REQUEST',
    readonly reason: string,
    readonly options: { retryable?: boolean; retryAfterSeconds?: number } = {},
  ) {
    super(reason);
    this.name = 'VenueRefusal';
  }
}

/** The order may or may not have reached the venue (a timeout after it was sent, a cut connection): its outcome is looked up by client order id. */
export class VenueOutcomeUnknown extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'VenueOutcomeUnknown';
  }
}

/** The venue's account: its own truth, shown beside the paper ledger and never mixed into it. */
export interface VenueAccount {
  /** The venue's account (a wallet address, an account number): never a credential. */
  account: string;
  /** Free collateral or buying power, by token (USDC on Hyperliquid, USD on Alpaca). */
  available: Record<string, string>;
  /** Equity or account value, by token. */
  equity: Record<string, string>;
  positions: { marketId: string; size: string; entryPrice: string | null; unrealizedPnl: string | null }[];
  /** The venue's time of this account state (epoch ms). */
  at: number;
}

/** Whether the venue can be traded now: credentials loaded and authorised, or why not (never the credential). */
export type VenueReadiness = { ready: true } | { ready: false; reason: string };

/**
 * An execution venue whose orders live at a real venue (Hyperliquid, Alpaca): the gateway
 * quotes and checks the venue's rules at preview (as every ExecutionVenue), then places,
 * follows and cancels orders there by client order id. The venue's record is the truth.
 */
export interface RoutedVenue extends ExecutionVenue {
  readonly routed: true;
  /**
   * The one gateway account whose orders this venue's account takes (the operator names it):
   * the venue holds one account, so every other gateway account is refused at preview.
   */
  readonly boundAccount: string;
  /** The client order id of an account's referenceId, in the venue's form: the same every time, so a retry can never place twice. */
  clientOrderIdFor(accountId: string, referenceId: string): string;
  /**
   * Sends the order. Answers the venue's state of it once it acknowledged it (open, filled, …);
   * throws VenueRefusal when the venue refused it (nothing placed) and VenueOutcomeUnknown when
   * it may have been placed without an answer.
   */
  place(order: RoutedOrder): Promise<RoutedOrderState>;
  /** Cancels an order by client order id; answers its state after (cancelled, or filled if it filled first). */
  cancel(clientOrderId: string, market: MarketDefinition): Promise<RoutedOrderState>;
  /** The venue's record of a client order id; null when the venue never received it. */
  lookup(clientOrderId: string, market: MarketDefinition): Promise<RoutedOrderState | null>;
  /** Follows the venue's order updates (its order stream); the returned function stops. */
  follow(onUpdate: (state: RoutedOrderState) => void): () => void;
  /** Whether the order stream is up now (while it is not, resting orders are looked up instead). */
  followAlive(): boolean;
  /** The venue's account. */
  account(): Promise<VenueAccount>;
  readiness(): Promise<VenueReadiness>;
}

export function isRoutedVenue(venue: ExecutionVenue): venue is RoutedVenue {
  return (venue as Partial<RoutedVenue>).routed === true;
}

/**
 * What a good-till-cancelled (or post-only) limit at a real venue does now, from the paper
 * simulation of an immediate fill: what does not cross rests there (open), in full or in part.
 */
export function restingExpectation(now: Quote['expectedFill']): Quote['expectedFill'] {
  if (!now || now.state === 'rejected') return { state: 'open', filledAmount: '0', reason: 'Rests at the venue until it fills or is cancelled.' };
  if (now.state === 'partially_filled') return { ...now, reason: 'What does not fill now rests at the venue.' };
  return now;
}
