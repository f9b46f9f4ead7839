import type { MarketDefinition } from '../domain/market.js';

/** A market of `markets` by id, else by asset symbol; case-insensitive. */
export function findMarket(markets: readonly MarketDefinition[], assetOrId: string): MarketDefinition | undefined {
  const key = assetOrId.trim().toUpperCase();
  return markets.find((m) => m.id.toUpperCase() === key) ?? markets.find((m) => m.asset.toUpperCase() === key);
}

/** The listed markets, and how a `{asset}` path parameter finds one. */
export class MarketDirectory {
  private readonly byId = new Map<string, MarketDefinition>();
  private readonly byAsset = new Map<string, MarketDefinition>();

  constructor(readonly markets: readonly MarketDefinition[]) {
    for (const m of markets) {
      this.byId.set(m.id.toUpperCase(), m);
      // First listing wins, so BTC means BTC-PERP rather than a later spot pool.
      if (!this.byAsset.has(m.asset.toUpperCase())) this.byAsset.set(m.asset.toUpperCase(), m);
    }
  }

  /** A market id first, then an asset symbol; case-insensitive. */
  resolve(assetOrId: string): MarketDefinition | undefined {
    const key = assetOrId.trim().toUpperCase();
    return this.byId.get(key) ?? this.byAsset.get(key);
  }

  /** Like `resolve`, among the markets of one kind (BTC as a perpetual, USDC as a lending pool). */
  resolveOfKind(assetOrId: string, kind: MarketDefinition['kind']): MarketDefinition | undefined {
    return findMarket(
      this.markets.filter((m) => m.kind === kind),
      assetOrId,
    );
  }

  ofSource(sourceId: string): MarketDefinition[] {
    return this.markets.filter((m) => m.sourceId === sourceId);
  }

  ofProtocol(protocolId: string): MarketDefinition[] {
    return this.markets.filter((m) => m.protocolId === protocolId);
  }
}
