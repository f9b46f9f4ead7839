import { z } from 'zod';
import { missingFreshness, type FreshnessBasis } from '../../src/domain/freshness.js';
import { viewFreshnessBasis } from '../../src/market-data/market-reader.js';
import { HISTORY_LIMIT, HISTORY_RESOLUTIONS } from '../../src/market-data/history-limits.js';
import { RESOLUTION_MS, type HistoryPoint, type HistoryResolution } from '../../src/market-data/candle-history.js';
import { isRfc3339 } from '../../src/domain/rfc3339.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, timedEnvelope, type PublicEnvelope } from './envelope.js';
import { invalidParameter } from '../../src/errors/error-factories.js';

export interface MarketHistory {
  asset: string;
  marketId: string | null;
  resolution: HistoryResolution;
  from: number | null;
  to: number;
  points: HistoryPoint[];
  /** Continues back in time: the points before the oldest one here (null when there are none left to ask for). */
  nextCursor: string | null;
}

export interface HistoryArgs {
  asset: string;
  resolution?: string | null;
  from?: string | null;
  to?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Where the next (older) history page ends: its market, resolution and inclusive upper bound. */
interface HistoryPosition {
  m: string;
  r: string;
  to: number;
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
  const empty: MarketHistory = { asset: args.asset, marketId: null, resolution: q.resolution, from: q.from ?? null, to: q.to, points: [], nextCursor: null };
  if (!market) return publicEnvelope(empty, missingFreshness('not_found', 'unknown', now), now, 404);

  // Paging back: a cursor replaces `to` with the instant before the previous page's oldest point.
  if (args.cursor) {
    const at = ctx.services.cursors.decode<HistoryPosition>('history', args.cursor, 'cursor', CODE);
    if (at.m !== market.id || at.r !== q.resolution) throw invalid(`'cursor' continues another market or resolution.`, 'cursor');
    q.to = at.to;
    if (q.from !== undefined && q.from > q.to) throw invalid(`'from' is later than the cursor's page`, 'from');
  }
  // Read before the data: an answer is reused only while no snapshot or candle write came after these.
  const version = ctx.services.answerVersion();
  const candles = history.candleVersion(market.id);
  const result = await history.candles({ marketId: market.id, ...q, now });
  if ('refused' in result) throw invalid(result.refused, 'resolution');
  const view = await reader.view(market, now);
  // A real venue's history still being fetched: the first read answers at once and says so.
  const basis: FreshnessBasis =
    result.points.length === 0 && history.backfilling(market.id)
      ? { missing: 'history_backfilling', sourceStatus: view?.freshness.sourceStatus ?? (await reader.sourceStatus(market.sourceId)) }
      : view
        ? viewFreshnessBasis(view.asOfMs, view.freshness.sourceStatus)
        : { missing: 'no_snapshot', sourceStatus: await reader.sourceStatus(market.sourceId) };
  const oldest = result.points[0];
  const nextCursor =
    oldest && result.points.length === q.limit && (q.from === undefined || oldest.start > q.from)
      ? ctx.services.cursors.encode('history', { m: market.id, r: q.resolution, to: oldest.start - 1 } satisfies HistoryPosition)
      : null;
  const data = { ...empty, asset: market.asset, marketId: market.id, points: result.points, nextCursor };
  // Between two bucket boundaries of the resolution only the instant moves (generatedAt, freshness,
  // a default `to`): which buckets are in range and which are closed change at a boundary.
  const res = RESOLUTION_MS[q.resolution];
  const boundary = Math.floor(now / res) * res + res;
  const defaultTo = args.to == null && !args.cursor;
  const timing = {
    version: candles === undefined ? undefined : version,
    now,
    freshness: [basis],
    ...(defaultTo ? { instants: ['to'] } : {}),
    standsAt: (at: number) => at < boundary && history.candleVersion(market.id) === candles,
  };
  return timedEnvelope(data, timing);
}
