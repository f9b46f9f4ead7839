/**
 * Routes of the fake's market-data API (data.alpaca.markets, `/v2/stocks/...`): historical bars
 * (multi- and single-symbol, `next_page_token` paging), latest trades/quotes/bars and snapshots.
 *
 * Paging follows Alpaca: `limit` (1..10000, default 1000) counts data points across all symbols of
 * a page; symbols come in alphabetical order, each symbol's bars in `sort` order (asc default); the
 * token is opaque (base64 of `SYMBOL|unit|timestamp` of the last bar served, as the recorded tokens
 * are). Without `start` the query starts at the beginning of the venue's current New York day and
 * without `end` it ends now, as Alpaca's do. A free plan (the default) may not ask the `sip` feed for
 * the last 15 minutes (403 with Alpaca's wording).
 */
import type { Route, RouteContext } from './http-server.js';
import { parseTimeframe, type MarketDataStore, type Timeframe, type WireBar } from './market-data-store.js';
import { VenueRejection, errors } from './venue-errors.js';
import { newYorkMidnight } from './venue-time.js';

export type DataPlan = 'free' | 'unlimited';

export interface MarketDataApiOptions {
  store: MarketDataStore;
  now: () => Date;
  plan: () => DataPlan;
}

const FEEDS = new Set(['iex', 'sip', 'delayed_sip', 'otc', 'boats', 'overnight']);
const UNIT_CODES: Record<Timeframe['unit'], string> = { Min: 'T', Hour: 'H', Day: 'D', Week: 'W', Month: 'M' };

function bad(message: string): never {
  throw new VenueRejection(errors.invalid(message, 400));
}

function symbolsOf(query: URLSearchParams): string[] {
  const raw = query.get('symbols');
  if (!raw) bad('symbols is required');
  const list = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (list.length === 0) bad('symbols is required');
  return [...new Set(list)];
}

function timeParam(query: URLSearchParams, key: string): Date | undefined {
  const raw = query.get(key);
  if (raw === null || raw === '') return undefined;
  const value = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T00:00:00Z`) : new Date(raw);
  if (Number.isNaN(value.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) bad(`invalid ${key}: ${raw}`);
  return value;
}

export function marketDataRoutes(options: MarketDataApiOptions): Route[] {
  const { store } = options;

  const checkFeed = (query: URLSearchParams, end: Date | undefined): void => {
    const feed = query.get('feed');
    if (feed === null) return;
    if (!FEEDS.has(feed)) bad(`invalid feed: ${feed}`);
    if (feed === 'sip' && options.plan() === 'free') {
      const until = end ?? options.now();
      if (until.getTime() > options.now().getTime() - 15 * 60_000) throw new VenueRejection(errors.sipForbidden());
    }
  };

  /** One page of bars over `symbols`, as `[symbol, bars]` pairs in answer order, and the next token. */
  const barsPage = (symbols: string[], query: URLSearchParams): { page: Array<[string, WireBar[]]>; next: string | null } => {
    const timeframeRaw = query.get('timeframe');
    if (!timeframeRaw) bad('timeframe is required');
    const timeframe = parseTimeframe(timeframeRaw);
    if (!timeframe) bad(`invalid timeframe: ${timeframeRaw}`);
    const start = timeParam(query, 'start') ?? newYorkMidnight(options.now());
    const end = timeParam(query, 'end') ?? options.now();
    checkFeed(query, timeParam(query, 'end'));
    const limitRaw = query.get('limit');
    const limit = limitRaw === null ? 1000 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) bad(`invalid limit: must be between 1 and 10000, got ${limitRaw}`);
    const sort = query.get('sort') ?? 'asc';
    if (sort !== 'asc' && sort !== 'desc') bad(`invalid sort: ${sort}`);

    const ordered = [...symbols].sort();
    const series = ordered.map((symbol) => {
      const bars = store.bars(symbol, timeframe).filter((b) => {
        const t = Date.parse(b.t);
        return t >= start.getTime() && t <= end.getTime();
      });
      return [symbol, sort === 'desc' ? bars.reverse() : bars] as [string, WireBar[]];
    });

    const flat = series.flatMap(([symbol, bars]) => bars.map((bar) => ({ symbol, bar })));
    let from = 0;
    const token = query.get('page_token');
    if (token) {
      const decoded = Buffer.from(token, 'base64').toString('utf8').split('|');
      const [tokenSymbol, , tokenTime] = decoded;
      const at = ordered.indexOf(tokenSymbol ?? '');
      const after = Date.parse(tokenTime ?? '');
      if (decoded.length !== 3 || at < 0 || Number.isNaN(after)) bad('invalid page token');
      from = flat.findIndex((item) => {
        const index = ordered.indexOf(item.symbol);
        if (index !== at) return index > at;
        const t = Date.parse(item.bar.t);
        return sort === 'asc' ? t > after : t < after;
      });
      if (from < 0) from = flat.length;
    }
    const slice = flat.slice(from, from + limit);
    const page: Array<[string, WireBar[]]> = [];
    for (const { symbol, bar } of slice) {
      const group = page.at(-1);
      if (group && group[0] === symbol) group[1].push(bar);
      else page.push([symbol, [bar]]);
    }
    const last = slice.at(-1);
    const next =
      from + limit < flat.length && last
        ? Buffer.from(`${last.symbol}|${UNIT_CODES[timeframe.unit]}|${new Date(last.bar.t).toISOString().replace(/Z$/, '000000Z')}`).toString('base64')
        : null;
    return { page, next };
  };

  const multiBars = (ctx: RouteContext) => {
    const { page, next } = barsPage(symbolsOf(ctx.query), ctx.query);
    return { status: 200, body: { bars: Object.fromEntries(page), next_page_token: next } };
  };

  const singleBars = (ctx: RouteContext, [symbol]: string[]) => {
    const upper = (symbol ?? '').toUpperCase();
    const { page, next } = barsPage([upper], ctx.query);
    return { status: 200, body: { bars: page[0]?.[1] ?? [], symbol: upper, next_page_token: next } };
  };

  const latest = <T>(key: string, pick: (symbol: string) => T | undefined) => {
    const multi = (ctx: RouteContext) => {
      checkFeed(ctx.query, undefined);
      const out: Record<string, T> = {};
      for (const symbol of symbolsOf(ctx.query)) {
        const value = pick(symbol);
        if (value !== undefined) out[symbol] = value;
      }
      return { status: 200, body: { [`${key}s`]: out } };
    };
    const single = (ctx: RouteContext, [symbol]: string[]) => {
      checkFeed(ctx.query, undefined);
      const upper = (symbol ?? '').toUpperCase();
      return { status: 200, body: { symbol: upper, [key]: pick(upper) ?? null } };
    };
    return { multi, single };
  };

  const trades = latest('trade', (s) => store.latestTrade(s));
  const quotes = latest('quote', (s) => store.latestQuote(s));
  const bars = latest('bar', (s) => store.latestBar(s));

  return [
    { method: 'GET', pattern: /^\/v2\/stocks\/bars$/, handle: multiBars },
    { method: 'GET', pattern: /^\/v2\/stocks\/bars\/latest$/, handle: bars.multi },
    { method: 'GET', pattern: /^\/v2\/stocks\/trades\/latest$/, handle: trades.multi },
    { method: 'GET', pattern: /^\/v2\/stocks\/quotes\/latest$/, handle: quotes.multi },
    {
      method: 'GET',
      pattern: /^\/v2\/stocks\/snapshots$/,
      handle: (ctx) => {
        checkFeed(ctx.query, undefined);
        return { status: 200, body: Object.fromEntries(symbolsOf(ctx.query).map((s) => [s, store.snapshot(s)])) };
      },
    },
    { method: 'GET', pattern: /^\/v2\/stocks\/([^/]+)\/bars$/, handle: singleBars },
    { method: 'GET', pattern: /^\/v2\/stocks\/([^/]+)\/bars\/latest$/, handle: bars.single },
    { method: 'GET', pattern: /^\/v2\/stocks\/([^/]+)\/trades\/latest$/, handle: trades.single },
    { method: 'GET', pattern: /^\/v2\/stocks\/([^/]+)\/quotes\/latest$/, handle: quotes.single },
    {
      method: 'GET',
      pattern: /^\/v2\/stocks\/([^/]+)\/snapshot$/,
      handle: (ctx, [symbol]) => {
        checkFeed(ctx.query, undefined);
        const upper = (symbol ?? '').toUpperCase();
        const snapshot = store.snapshot(upper);
        if (!snapshot) throw new VenueRejection({ status: 404, body: { code: 40410000, message: `no snapshot found for ${upper}` } });
        return { status: 200, body: { symbol: upper, ...snapshot } };
      },
    },
  ];
}
