import { z } from 'zod';
import { missingFreshness } from '../../src/domain/freshness.js';
import { HISTORY_LIMIT, HISTORY_RESOLUTIONS } from '../../src/market-data/history-limits.js';
import type { HistoryPoint, HistoryResolution } from '../../src/market-data/candle-history.js';
import { isRfc3339 } from '../../src/domain/rfc3339.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from './envelope.js';
import { invalidParameter } from '../../src/errors/error-factories.js';

export interface MarketHistory {
  asset: string;
  marketId: string | null;
  resolution: HistoryResolution;
  from: number | null;
  to: number;
  points: HistoryPoint[];
}

export interface HistoryArgs {
  asset: string;
  resolution?: string | null;
  from?: string | null;
  to?: string | null;
  limit?: number | null;
}

const CODE = 'invalid_public_market_history_query';

const dateTime = (name: string) =>
  z
    .string()
    .refine(isRfc3339, `'${name}' must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z`)
    .transform((s) => Date.parse(s));

const historyQuery = z.object({
  resolution: z.enum(HISTORY_RESOLUTIONS, { error: `'resolution' must be one of ${HISTORY_RESOLUTIONS.join(', ')}` }).default('1d'),
  from: dateTime('from').optional(),
  to: dateTime('to').optional(),
  limit: z
    .number({ error: `'limit' must be an integer from ${HISTORY_LIMIT.min} to ${HISTORY_LIMIT.max}` })
    .int(`'limit' must be an integer from ${HISTORY_LIMIT.min} to ${HISTORY_LIMIT.max}`)
    .min(HISTORY_LIMIT.min, `'limit' must be at least ${HISTORY_LIMIT.min}`)
    .max(HISTORY_LIMIT.max, `'limit' must be at most ${HISTORY_LIMIT.max}`)
    .default(HISTORY_LIMIT.default),
});

const invalid = (message: string, parameter: string) => invalidParameter(CODE, parameter, message);

/** Validates the history query; every message names the bad parameter (spec, History rules 1). */
export function parseHistoryQuery(args: HistoryArgs, now: number) {
  const parsed = historyQuery.safeParse({
    resolution: args.resolution ?? undefined,
    from: args.from ?? undefined,
    to: args.to ?? undefined,
    limit: args.limit ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(issue.message, String(issue.path[0] ?? 'query'));
  }
  const { resolution, from, limit } = parsed.data;
  const to = parsed.data.to ?? now;
  if (from !== undefined && from > to) throw invalid(`'from' must not be later than 'to'`, 'from');
  return { resolution, from, to, limit };
}

export async function marketHistoryEnvelope(ctx: GatewayContext, args: HistoryArgs): Promise<PublicEnvelope<MarketHistory>> {
  const { reader, history, clock } = ctx.services;
  const now = clock.now();
  const q = parseHistoryQuery(args, now);
  const market = reader.directory.resolve(args.asset);
  const empty: MarketHistory = { asset: args.asset, marketId: null, resolution: q.resolution, from: q.from ?? null, to: q.to, points: [] };
  if (!market) return publicEnvelope(ctx, empty, missingFreshness('not_found', 'unknown', now), now, 404);

  const result = await history.candles({ marketId: market.id, ...q, now });
  if ('refused' in result) throw invalid(result.refused, 'resolution');
  const freshness = (await reader.freshness(market, now)).freshness;
  return publicEnvelope(ctx, { ...empty, asset: market.asset, marketId: market.id, points: result.points }, freshness, now);
}
