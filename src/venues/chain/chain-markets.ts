import type { MarketDefinition } from '../../domain/market.js';

/** The ledger keeps 8 decimals: a market's sizes are the token's decimals, at most these. */
const MAX_SIZE_DECIMALS = 8;

/**
 * A token's symbol as the gateway names assets and ledger keys (upper case, as the simulators'
 * are: `wstETH` lists as WSTETH), or undefined when it is not a plain name (a path segment and a
 * ledger key must stay readable, so such a token is not listed).
 */
export function tokenSymbol(raw: string): string | undefined {
  const symbol = raw.trim().toUpperCase();
  return /^[A-Z0-9][A-Z0-9._+-]{0,31}$/.test(symbol) ? symbol : undefined;
}

/** A market of an on-chain venue: its prices are the chain's, so the simulators' parameters are zero. */
export function chainMarket(
  venueId: string,
  m: Pick<MarketDefinition, 'id' | 'asset' | 'quote' | 'kind' | 'priceDecimals'> & { tokenDecimals: number },
): MarketDefinition {
  return {
    id: m.id,
    asset: m.asset,
    quote: m.quote,
    kind: m.kind,
    protocolId: venueId,
    sourceId: venueId,
    priceDecimals: m.priceDecimals,
    sizeDecimals: Math.min(m.tokenDecimals, MAX_SIZE_DECIMALS),
    basePrice: 0,
    volatility: 0,
    volumePerMinute: 0,
    hasOrderBook: false,
  };
}
