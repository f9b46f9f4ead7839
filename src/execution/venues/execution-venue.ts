import type { MarketDefinition } from '../../domain/market.js';
import type { SnapshotCache } from '../../market-data/snapshot-cache.js';
import type { MarketReader } from '../../market-data/market-reader.js';
import type { ExecutionInstruction } from '../instruction.js';
import type { Fill } from '../execution-types.js';

/** What executing the instruction would do, priced now. Amounts are decimal strings. */
export interface Quote {
  marketId: string;
  side: 'buy' | 'sell' | null;
  /** Expected average price (quote units per base unit), when the action has one. */
  price: string | null;
  amount: string;
  /** USD value of the order, used for caps and notional limits. */
  notionalUsd: string;
  fee: string;
  feeToken: string;
  amountOut: string | null;
  minAmountOut: string | null;
  /** Signed ledger changes on a full fill. */
  changes: Record<string, string>;
  /** Ledger keys allowed below zero (short positions). */
  mayGoNegative: string[];
  /** Whether the venue can take the order right now (market hours), with the reason if not. */
  tradable: { ok: true } | { ok: false; reason: string };
  /** A balance rule beyond the ledger (lending collateral), when it fails. */
  insufficient: string | null;
  /**
   * What the venue's fill would do now, by the same simulation the submission runs (a limit that
   * does not cross fills nothing); absent where an order fills in full or not at all.
   */
  expectedFill?: {
    /** `open`: a limit that does not cross rests in full at a real venue (fills nothing now). */
    state: 'filled' | 'partially_filled' | 'open' | 'rejected';
    filledAmount: string;
    reason: string | null;
  };
}

/** Result of submitting to the paper venue. */
export interface VenueFill {
  state: 'filled' | 'partially_filled' | 'rejected';
  fill: Fill | null;
  changes: Record<string, string>;
  reason: string | null;
}

export interface VenueContext {
  reader: MarketReader;
  cache: SnapshotCache;
  now: number;
  /** Current ledger of the account (for sells and collateral checks). */
  balances: Record<string, string>;
  /** The gateway account the instruction is for, where the caller knows it (a routed venue bound to one account checks it). */
  accountId?: string;
}

/** One paper venue: quotes an instruction from the data plane's snapshots, then fills it. */
export interface ExecutionVenue {
  readonly protocolId: string;
  /** The market an instruction trades, or a 400 naming the field. */
  marketFor(instruction: ExecutionInstruction): MarketDefinition;
  quote(instruction: ExecutionInstruction, ctx: VenueContext): Promise<Quote>;
  fill(instruction: ExecutionInstruction, quote: Quote, ctx: VenueContext): Promise<VenueFill>;
  /** A rule the account must still meet once the fill is booked (with `ctx.balances` after it), or null. */
  afterFill?(instruction: ExecutionInstruction, ctx: VenueContext): Promise<string | null>;
}
