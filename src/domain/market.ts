export type MarketKind = 'perpetual' | 'equity' | 'swap_pool' | 'lending';

/** Static description of a market, owned by the venue that lists it. */
export interface MarketDefinition {
  id: string;
  /** Base asset symbol; `{asset}` path parameters resolve a symbol to its primary market. */
  asset: string;
  quote: string;
  kind: MarketKind;
  protocolId: string;
  sourceId: string;
  priceDecimals: number;
  sizeDecimals: number;
  /** Reference price the deterministic process oscillates around. */
  basePrice: number;
  /** Relative amplitude of the price process (0.05 = about ±5 %). */
  volatility: number;
  /** Notional traded per minute in quote units, before noise. */
  volumePerMinute: number;
  hasOrderBook: boolean;
}

/** One settled funding interval of a perpetual. */
export interface FundingEntry {
  /** Settlement time, epoch ms. */
  time: number;
  /** Rate paid for the interval ending at `time` (decimal string). */
  rate: string;
}

/** What a venue reports for one market at one moment; amounts are decimal strings. */
export interface MarketQuote {
  marketId: string;
  price: string;
  change24hPct: string;
  /** The 24 h range, when the venue reports it or its candles of the last 24 h are stored (never made up). */
  high24h: string | null;
  low24h: string | null;
  volume24h: string;
  fundingRate: string | null;
  nextFundingAt: number | null;
  openInterest: string | null;
  /** The latest settled funding interval (perpetuals). */
  lastFunding: FundingEntry | null;
  supplyApy: string | null;
  borrowApy: string | null;
  utilization: string | null;
  /**
   * A swap pool's in-range liquidity as the quote-token reserve of the constant-product pool it
   * equals at the current price (a Uniswap v3 pool's L·√P, in quote units); null elsewhere.
   */
  liquidity: string | null;
  sessionOpen: boolean | null;
  /** Volume the venue traded since its previous quote, for candle observations. */
  volumeDelta: string;
  /** The venue's own timestamp of the quote, when it gives one. */
  sourceTime: number;
}

/** The figures of every other kind of market, none of which a venue has for this one (null until it sets its own). */
export const NO_KIND_FIGURES = {
  fundingRate: null,
  nextFundingAt: null,
  openInterest: null,
  lastFunding: null,
  supplyApy: null,
  borrowApy: null,
  utilization: null,
  liquidity: null,
  sessionOpen: null,
} as const satisfies Partial<MarketQuote>;

/** A quote as stored by ingest: stamped with the time the gateway received it. */
export interface MarketSnapshot extends MarketQuote {
  receivedAt: number;
}

export interface OrderBookLevel {
  price: string;
  size: string;
  cumulativeSize: string;
}

export interface OrderBookSnapshot {
  marketId: string;
  bids: OrderBookLevel[];
  asks: OrderBookLevel[];
  sourceTime: number;
  receivedAt: number;
}
