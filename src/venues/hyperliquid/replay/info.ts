import { USER_INFO_TYPES } from './exchange-info.js';
import type { ReplayVenue } from './venue.js';
import { CANDLE_INTERVALS, isCandleInterval } from './wire.js';

/**
 * Answers an account's info request (orderStatus, userFills, …) when the fake exchange runs;
 * undefined when the body's `user` is not an address.
 */
export type UserInfo = (type: string, body: Record<string, unknown>) => unknown;

/**
 * POST /info: the body's `type` picks the answer. Answers follow the venue: JSON with status 200;
 * a body the venue cannot read gets axum's plain-text rejections (422 "Failed to deserialize the
 * JSON body into the target type: …", 400 "Failed to parse the request body as JSON: …"), as seen
 * from api.hyperliquid.xyz in client reports; the text after the colon is serde's message and its
 * exact wording here is reconstructed, not recorded.
 */

export interface InfoAnswer {
  status: number;
  contentType: string;
  body: string;
  /** The info type, when the body named one. */
  type: string | undefined;
  /** Items returned (array length), for the per-item request weight. */
  items: number;
}

/** The info types the fake answers. */
export const IMPLEMENTED_INFO_TYPES = [
  'meta',
  'metaAndAssetCtxs',
  'allMids',
  'l2Book',
  'candleSnapshot',
  'fundingHistory',
  'predictedFundings',
  'spotMeta',
  'spotMetaAndAssetCtxs',
] as const;

/**
 * Info types the venue knows (the InfoClient methods of @nktkas/hyperliquid 0.32.2) that the fake
 * does not implement: it answers them 500 with a plain-text note rather than pretending the venue
 * rejects them.
 */
const OTHER_VENUE_INFO_TYPES = [
  'activeAssetData',
  'alignedQuoteTokenInfo',
  'allBorrowLendReserveStates',
  'allPerpMetas',
  'approvedBuilders',
  'borrowLendReserveState',
  'borrowLendUserState',
  'clearinghouseState',
  'delegations',
  'delegatorHistory',
  'delegatorRewards',
  'delegatorSummary',
  'exchangeStatus',
  'extraAgents',
  'frontendOpenOrders',
  'gossipRootIps',
  'historicalOrders',
  'isVip',
  'leadingVaults',
  'legalCheck',
  'liquidatable',
  'marginTable',
  'maxBuilderFee',
  'maxMarketOrderNtls',
  'openOrders',
  'orderStatus',
  'outcomeMeta',
  'perpAnnotation',
  'perpCategories',
  'perpConciseAnnotations',
  'perpDeployAuctionStatus',
  'perpDexLimits',
  'perpDexStatus',
  'perpDexs',
  'perpsAtOpenInterestCap',
  'portfolio',
  'preTransferCheck',
  'recentTrades',
  'referral',
  'spotClearinghouseState',
  'spotDeployState',
  'spotPairDeployAuctionStatus',
  'subAccounts',
  'subAccounts2',
  'tokenDetails',
  'twapHistory',
  'userAbstraction',
  'userBorrowLendInterest',
  'userDexAbstraction',
  'userFees',
  'userFills',
  'userFillsByTime',
  'userFunding',
  'userNonFundingLedgerUpdates',
  'userRateLimit',
  'userRole',
  'userToMultiSigSigners',
  'userTwapSliceFills',
  'userTwapSliceFillsByTime',
  'userVaultEquities',
  'validatorL1Votes',
  'validatorSummaries',
  'vaultDetails',
  'vaultSummaries',
  'webData2',
];

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';

class Rejection extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

function json(body: unknown, type: string | undefined): InfoAnswer {
  return { status: 200, contentType: JSON_TYPE, body: JSON.stringify(body), type, items: Array.isArray(body) ? body.length : 0 };
}

/** serde's "at line 1 column N" for the end of `value` in the raw body (or the end of the body). */
function position(raw: string, value?: unknown): string {
  let column = raw.length;
  if (value !== undefined) {
    const text = JSON.stringify(value);
    const at = raw.indexOf(text);
    if (at >= 0) column = at + text.length;
  }
  return `at line 1 column ${column}`;
}

function deserialize(raw: string, detail: string, value?: unknown): Rejection {
  return new Rejection(422, `Failed to deserialize the JSON body into the target type: ${detail} ${position(raw, value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  return Array.isArray(value) ? 'sequence' : 'map';
}

type Body = Record<string, unknown>;

function str(raw: string, body: Body, field: string): string {
  const value = body[field];
  if (value === undefined) throw deserialize(raw, `missing field \`${field}\``);
  if (typeof value !== 'string') throw deserialize(raw, `invalid type: ${describe(value)}, expected a string`, value);
  return value;
}

function u64(raw: string, body: Body, field: string, optional: true): number | undefined;
function u64(raw: string, body: Body, field: string, optional?: false): number;
function u64(raw: string, body: Body, field: string, optional = false): number | undefined {
  const value = body[field];
  if (value === undefined || (optional && value === null)) {
    if (optional) return undefined;
    throw deserialize(raw, `missing field \`${field}\``);
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw deserialize(raw, `invalid type: ${describe(value)}, expected u64`, value);
  return value;
}

function dexOf(raw: string, body: Body): string {
  const dex = body.dex;
  if (dex === undefined || dex === null) return '';
  if (typeof dex !== 'string') throw deserialize(raw, `invalid type: ${describe(dex)}, expected a string`, dex);
  return dex;
}

/** Another perp dex than the first: the fake has none (answered 500 with a JSON null, as the venue answers an unknown coin). */
function unknownDex(type: string): InfoAnswer {
  return { status: 500, contentType: JSON_TYPE, body: 'null', type, items: 0 };
}

function pick(raw: string, body: Body, field: string, allowed: readonly number[]): number | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !allowed.includes(value))
    throw deserialize(raw, `invalid value: ${describe(value)}, expected one of ${allowed.join(', ')}`, value);
  return value;
}

function answer(venue: ReplayVenue, raw: string, body: Body, type: string, userInfo: UserInfo | undefined): InfoAnswer {
  if (userInfo && (USER_INFO_TYPES as readonly string[]).includes(type)) {
    const data = userInfo(type, body);
    if (data === undefined) throw deserialize(raw, body.user === undefined ? 'missing field `user`' : 'invalid value: expected an address', body.user);
    return json(data, type);
  }
  switch (type) {
    case 'meta':
      return dexOf(raw, body) ? unknownDex(type) : json(venue.meta(), type);
    case 'metaAndAssetCtxs': {
      if (dexOf(raw, body)) return unknownDex(type);
      const meta = venue.meta();
      return { ...json([meta, venue.assets.map((a) => venue.ctx(a))], type), items: 0 };
    }
    case 'allMids':
      return dexOf(raw, body) ? unknownDex(type) : json(venue.allMids(), type);
    case 'l2Book': {
      const coin = str(raw, body, 'coin');
      const nSigFigs = pick(raw, body, 'nSigFigs', [2, 3, 4, 5]);
      const mantissa = pick(raw, body, 'mantissa', [1, 2, 5]);
      const asset = venue.asset(coin);
      return json(asset ? venue.l2Book(asset, nSigFigs, nSigFigs === 5 ? mantissa : null) : null, type);
    }
    case 'candleSnapshot': {
      const req = body.req;
      if (req === undefined) throw deserialize(raw, 'missing field `req`');
      if (typeof req !== 'object' || req === null || Array.isArray(req))
        throw deserialize(raw, `invalid type: ${describe(req)}, expected struct CandleSnapshotReq`, req);
      const r = req as Body;
      const coin = str(raw, r, 'coin');
      const interval = r.interval;
      if (interval === undefined) throw deserialize(raw, 'missing field `interval`');
      if (!isCandleInterval(interval)) {
        throw deserialize(raw, `unknown variant \`${String(interval)}\`, expected one of ${CANDLE_INTERVALS.map((i) => `\`${i}\``).join(', ')}`, interval);
      }
      const startTime = u64(raw, r, 'startTime');
      const endTime = u64(raw, r, 'endTime', true);
      const asset = venue.asset(coin);
      return json(asset ? venue.candles(asset, interval, startTime, endTime) : [], type);
    }
    case 'fundingHistory': {
      const coin = str(raw, body, 'coin');
      const startTime = u64(raw, body, 'startTime');
      const endTime = u64(raw, body, 'endTime', true);
      const asset = venue.asset(coin);
      // An unknown coin: 500 with the body `null` (as reported against the venue, JKorf/HyperLiquid.Net#16).
      if (!asset) return { status: 500, contentType: JSON_TYPE, body: 'null', type, items: 0 };
      return json(venue.fundingHistory(asset, startTime, endTime), type);
    }
    case 'predictedFundings':
      return json(venue.predictedFundings(), type);
    case 'spotMetaAndAssetCtxs':
      return { ...json(venue.recorded.spotMetaAndAssetCtxs ?? [{ universe: [], tokens: [] }, []], type), items: 0 };
    case 'spotMeta': {
      const recorded = venue.recorded.spotMetaAndAssetCtxs as [unknown, unknown] | undefined;
      return json(recorded?.[0] ?? { universe: [], tokens: [] }, type);
    }
    default:
      // The fake venue serves the types above (what the gateway reads, and the user types with `trading`); another
      // type the venue knows is answered as the venue answers what it cannot serve: 500 with a JSON null.
      return { status: 500, contentType: JSON_TYPE, body: 'null', type, items: 0 };
  }
}

const ALL_TYPES = [...IMPLEMENTED_INFO_TYPES, ...OTHER_VENUE_INFO_TYPES];

/** Answers one POST /info body (`raw`, as received); the account types through `userInfo` when the fake exchange runs. */
export function answerInfo(venue: ReplayVenue, raw: string, userInfo?: UserInfo): InfoAnswer {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    const column = at ? Number(at[1]) + 1 : 1;
    return {
      status: 400,
      contentType: TEXT,
      body: `Failed to parse the request body as JSON: expected value at line 1 column ${column}`,
      type: undefined,
      items: 0,
    };
  }
  try {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw deserialize(raw, `invalid type: ${describe(body)}, expected internally tagged enum InfoRequest`);
    const record = body as Body;
    if (record.type === undefined) throw deserialize(raw, 'missing field `type`');
    if (typeof record.type !== 'string') throw deserialize(raw, `invalid type: ${describe(record.type)}, expected a string`, record.type);
    const type = record.type;
    if (!ALL_TYPES.includes(type)) {
      throw deserialize(raw, `unknown variant \`${type}\`, expected one of ${ALL_TYPES.map((t) => `\`${t}\``).join(', ')}`, type);
    }
    return answer(venue, raw, record, type, userInfo);
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    const type = typeof body === 'object' && body !== null && typeof (body as Body).type === 'string' ? ((body as Body).type as string) : undefined;
    return { status: error.status, contentType: TEXT, body: error.text, type, items: 0 };
  }
}
