import type { ClearinghouseStateResponse, InfoClient } from '@nktkas/hyperliquid';
import { Decimal } from '../../domain/decimal.js';
import type { VenueAccount } from '../../execution/venues/routed-venue.js';
import { defaultLeverage, type VenueAsset } from './hyperliquid-assets.js';
import { perpMarketId } from './hyperliquid-catalogue.js';
import { venueDecimal } from './hyperliquid-quotes.js';

/** How long an account state is reused by previews (the margin check of each order). */
const STATE_MS = 2_000;

/**
 * The venue account (the master account's clearinghouse state): its own truth, shown beside the
 * paper ledger and never mixed into it. Previews reuse a state at most two seconds old.
 */
export class HyperliquidAccount {
  private cached: { at: number; state: Promise<ClearinghouseStateResponse> } | undefined;

  constructor(
    private readonly info: InfoClient,
    readonly address: `0x${string}`,
    private readonly now: () => number = Date.now,
  ) {}

  /** The clearinghouse state, at most `maxAgeMs` old (a failed read is not kept). */
  state(maxAgeMs = STATE_MS): Promise<ClearinghouseStateResponse> {
    const now = this.now();
    if (this.cached && now - this.cached.at <= maxAgeMs) return this.cached.state;
    const state = this.info.clearinghouseState({ user: this.address });
    const entry = { at: now, state };
    this.cached = entry;
    state.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return state;
  }

  async venueAccount(): Promise<VenueAccount> {
    const state = await this.state(0);
    return {
      account: this.address,
      available: { USDC: venueDecimal(state.withdrawable, 'withdrawable') },
      equity: { USDC: venueDecimal(state.marginSummary.accountValue, 'accountValue') },
      positions: state.assetPositions.map(({ position: p }) => ({
        marketId: perpMarketId(p.coin),
        size: venueDecimal(p.szi, `${p.coin} position size`),
        entryPrice: p.entryPx ?? null,
        unrealizedPnl: p.unrealizedPnl ?? null,
      })),
      at: Number(state.time),
    };
  }

  /**
   * Why the account cannot back an order, or null: the initial margin the order adds (the size
   * that increases the position × `price` ÷ leverage: the position's, else the venue's default
   * for a new one) against what the account has free (`withdrawable`).
   */
  async marginShortfall(asset: VenueAsset, side: 'buy' | 'sell', amount: Decimal, price: Decimal): Promise<string | null> {
    const state = await this.state();
    const position = state.assetPositions.find((p) => p.position.coin === asset.name)?.position;
    const szi = new Decimal(position?.szi ?? 0);
    const after = szi.plus(side === 'buy' ? amount : amount.neg());
    const increase = Decimal.max(0, after.abs().minus(szi.abs()));
    const leverage = position ? Number(position.leverage.value) : defaultLeverage(asset);
    const needed = increase.times(price).div(leverage);
    const free = new Decimal(venueDecimal(state.withdrawable, 'withdrawable'));
    if (free.gte(needed)) return null;
    return `The order needs ${needed.toFixed(2)} USDC of initial margin at ${leverage}x; the Hyperliquid account has ${free.toFixed(2)} USDC free.`;
  }
}
