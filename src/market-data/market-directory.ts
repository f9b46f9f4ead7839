import type { MarketDefinition } from '../domain/market.js';

/** A market of `markets` by id, else by asset symbol; case-insensitive. */
export function findMarket(markets: readonly MarketDefinition[], assetOrId: string): MarketDefinition | undefined {
  const key = assetOrId.trim().toUpperCase();
  return markets.find((m) => m.id.toUpperCase() === key) ?? markets.find((m) => m.asset.toUpperCase() === key);
}

/**
 * The listed markets, and how a `{asset}` path parameter finds one. A real venue's catalogue
 * moves (listings, delistings): ingest replaces a source's markets when it sees a change, and
 * `revision` counts the changes, so an answer computed from the list is reused only while it stands.
 */
export class MarketDirectory {
  private listed: readonly MarketDefinition[] = [];
  private readonly byId = new Map<string, MarketDefinition>();
  private readonly byAsset = new Map<string, MarketDefinition>();
  private changes = 0;

  constructor(markets: readonly MarketDefinition[]) {
    this.list(markets);
  }

  /** Every listed market, in venue order. */
  get markets(): readonly MarketDefinition[] {
    return this.listed;
  }

  /** How many times the list changed. */
  get revision(): number {
    return this.changes;
  }

  /** Lists exactly these markets. */
  list(markets: readonly MarketDefinition[]): void {
    this.listed = markets;
    this.byId.clear();
    this.byAsset.clear();
    for (const m of markets) {
      this.byId.set(m.id.toUpperCase(), m);
      // First listing wins, so BTC means BTC-PERP rather than a later spot pool.
      if (!this.byAsset.has(m.asset.toUpperCase())) this.byAsset.set(m.asset.toUpperCase(), m);
    }
    this.changes += 1;
  }

  /**
   * Replaces one source's markets (its place in the list kept); returns whether anything
   * changed: a listing, a delisting, or a market's definition.
   */
  relist(sourceId: string, markets: readonly MarketDefinition[]): boolean {
    const before = this.listed.filter((m) => m.sourceId === sourceId);
    if (before.length === markets.length && before.every((m, i) => sameDefinition(m, markets[i]!))) return false;
    const at = this.listed.findIndex((m) => m.sourceId === sourceId);
    const others = this.listed.filter((m) => m.sourceId !== sourceId);
    const insertAt = at === -1 ? others.length : this.listed.slice(0, at).filter((m) => m.sourceId !== sourceId).length;
    this.list([...others.slice(0, insertAt), ...markets, ...others.slice(insertAt)]);
    return true;
  }

  /** A market id first, then an asset symbol; case-insensitive. */
  resolve(assetOrId: string): MarketDefinition | undefined {
    const key = assetOrId.trim().toUpperCase();
    return this.byId.get(key) ?? this.byAsset.get(key);
  }

  /** Like `resolve`, among the markets of one kind (BTC as a perpetual, USDC as a lending pool). */
  resolveOfKind(assetOrId: string, kind: MarketDefinition['kind']): MarketDefinition | undefined {
    return findMarket(
      this.listed.filter((m) => m.kind === kind),
      assetOrId,
    );
  }

  ofSource(sourceId: string): MarketDefinition[] {
    return this.listed.filter((m) => m.sourceId === sourceId);
  }

  ofProtocol(protocolId: string): MarketDefinition[] {
    return this.listed.filter((m) => m.protocolId === protocolId);
  }
}

function sameDefinition(a: MarketDefinition, b: MarketDefinition): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
