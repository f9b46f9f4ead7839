import { Decimal } from '../../src/domain/decimal.js';
import { FUNDING_HISTORY_LIMIT } from '../../src/market-data/history-limits.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { currentView, marketOfKind } from './market-lookup.js';
import { invalidCursor, invalidParameter } from '../../src/errors/error-factories.js';

const HOURS_PER_YEAR = 24 * 365;

export interface PerpPrice {
  marketId: string;
  asset: string;
  quote: string;
  price: string;
  change24hPct: string;
  high24h: string | null;
  low24h: string | null;
}

export interface FundingPoint {
  time: number;
  rate: string;
  annualizedPct: string;
}

export interface PerpFunding {
  marketId: string;
  asset: string;
  fundingRate: string;
  intervalHours: number;
  annualizedPct: string;
  nextFundingAt: string | null;
  openInterest: string | null;
  lastSettlement: FundingPoint | null;
}

export interface PerpFundingHistory {
  marketId: string;
  asset: string;
  intervalHours: number;
  entries: FundingPoint[];
  /** The entries before these, or null when no older one is kept. */
  nextCursor: string | null;
}

const annualized = (rate: string) => new Decimal(rate).mul(HOURS_PER_YEAR * 100).toFixed(4);

export async function perpPriceEnvelope(ctx: GatewayContext, asset: string): Promise<PublicEnvelope<PerpPrice>> {
  const now = ctx.services.clock.now();
  const v = await currentView(ctx, marketOfKind(ctx, asset, 'perpetual'), now);
  const data = { marketId: v.id, asset: v.asset, quote: v.quote, price: v.price, change24hPct: v.change24hPct, high24h: v.high24h, low24h: v.low24h };
  return publicEnvelope(data, v.freshness, now);
}

export async function perpFundingEnvelope(ctx: GatewayContext, asset: string): Promise<PublicEnvelope<PerpFunding>> {
  const now = ctx.services.clock.now();
  const market = marketOfKind(ctx, asset, 'perpetual');
  const [v, [last]] = await Promise.all([currentView(ctx, market, now), ctx.services.history.funding(market.id, 1)]);
  const rate = v.fundingRate ?? '0';
  return publicEnvelope(
    {
      marketId: v.id,
      asset: v.asset,
      fundingRate: rate,
      intervalHours: 1,
      annualizedPct: annualized(rate),
      nextFundingAt: v.nextFundingAt,
      openInterest: v.openInterest,
      lastSettlement: last ? { ...last, annualizedPct: annualized(last.rate) } : null,
    },
    v.freshness,
    now,
  );
}

export async function perpFundingHistoryEnvelope(
  ctx: GatewayContext,
  asset: string,
  limit: number | null | undefined,
  cursor?: string | null,
): Promise<PublicEnvelope<PerpFundingHistory>> {
  const n = limit ?? FUNDING_HISTORY_LIMIT.default;
  if (!Number.isInteger(n) || n < FUNDING_HISTORY_LIMIT.min || n > FUNDING_HISTORY_LIMIT.max) {
    throw invalidParameter(
      'invalid_funding_history_query',
      'limit',
      `'limit' must be an integer from ${FUNDING_HISTORY_LIMIT.min} to ${FUNDING_HISTORY_LIMIT.max}.`,
    );
  }
  const now = ctx.services.clock.now();
  const market = marketOfKind(ctx, asset, 'perpetual');
  const before = cursor ? ctx.services.cursors.decode<{ m: string; before: number }>('funding', cursor, 'cursor', 'invalid_funding_history_query') : undefined;
  if (before && before.m !== market.id) throw invalidCursor('cursor', `'cursor' continues another market's funding.`, 'invalid_funding_history_query');
  const [freshness, page] = await Promise.all([ctx.services.reader.freshness(market, now), ctx.services.history.funding(market.id, n + 1, before?.before)]);
  // One more than asked tells whether an older page exists.
  const entries = page.slice(-n);
  const nextCursor = page.length > n ? ctx.services.cursors.encode('funding', { m: market.id, before: entries[0]!.time }) : null;
  return publicEnvelope(
    { marketId: market.id, asset: market.asset, intervalHours: 1, entries: entries.map((e) => ({ ...e, annualizedPct: annualized(e.rate) })), nextCursor },
    freshness.freshness,
    now,
  );
}
