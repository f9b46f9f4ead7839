import type { Freshness } from '../domain/freshness.js';
import type { MarketDefinition, MarketKind, MarketSnapshot } from '../domain/market.js';

/** A public market record: what every reader of one snapshot sees, built once per snapshot. */
export interface MarketRecord {
  id: string;
  asset: string;
  quote: string;
  kind: MarketKind;
  protocol: string;
  hasOrderBook: boolean;
  price: string;
  change24hPct: string;
  high24h: string | null;
  low24h: string | null;
  volume24h: string;
  fundingRate: string | null;
  nextFundingAt: string | null;
  openInterest: string | null;
  supplyApy: string | null;
  borrowApy: string | null;
  utilization: string | null;
  liquidity: string | null;
  sessionOpen: boolean | null;
  /** Epoch ms of the snapshot (freshness `asOf`). */
  asOfMs: number;
}

export interface MarketView extends MarketRecord {
  freshness: Freshness;
}

/** Freshness of one market, as published to `freshnessChanged` subscribers. */
export interface MarketFreshness {
  marketId: string;
  asset: string;
  freshness: Freshness;
  /** On events: the market's freshness sequence number (1, 2, …), when it was produced, and whether it only repeats the state. */
  sequence?: number;
  producedAt?: number;
  heartbeat?: boolean;
  /** On the state sent on subscribe with a last sequence: whether events came after it. */
  missedEvents?: boolean;
}

const records = new WeakMap<MarketSnapshot, MarketRecord>();

/** Snapshot time: the venue's own time when it has one, else when the gateway received it. */
export function snapshotTime(s: { sourceTime: number; receivedAt: number }): number {
  return Math.min(s.sourceTime || s.receivedAt, s.receivedAt);
}

export function recordOf(m: MarketDefinition, s: MarketSnapshot): MarketRecord {
  let r = records.get(s);
  if (!r) {
    r = {
      id: m.id,
      asset: m.asset,
      quote: m.quote,
      kind: m.kind,
      protocol: m.protocolId,
      hasOrderBook: m.hasOrderBook,
      price: s.price,
      change24hPct: s.change24hPct,
      high24h: s.high24h,
      low24h: s.low24h,
      volume24h: s.volume24h,
      fundingRate: s.fundingRate,
      nextFundingAt: s.nextFundingAt === null ? null : new Date(s.nextFundingAt).toISOString(),
      openInterest: s.openInterest,
      supplyApy: s.supplyApy,
      borrowApy: s.borrowApy,
      utilization: s.utilization,
      liquidity: s.liquidity,
      sessionOpen: s.sessionOpen,
      asOfMs: snapshotTime(s),
    };
    records.set(s, r);
  }
  return r;
}
