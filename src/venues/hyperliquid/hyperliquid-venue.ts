import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { realVenueProtocol, type VenueModule } from '../venue-module.js';
import { HyperliquidSource } from './hyperliquid-source.js';
import { hyperliquidSettings } from './hyperliquid-settings.js';

/**
 * Hyperliquid perpetuals (no key needed): real market data from the venue's info API and
 * WebSocket, orders filled on paper against its real book. Turned on by HYPERLIQUID_NETWORK.
 */
export const hyperliquid: VenueModule = {
  id: 'hyperliquid',
  kind: 'perpetuals',
  mode: 'real',
  variables: [
    'HYPERLIQUID_NETWORK',
    'HYPERLIQUID_API_URL',
    'HYPERLIQUID_WS_URL',
    'HYPERLIQUID_WEIGHT_PER_MINUTE',
    'HYPERLIQUID_POLL_MS',
    'HYPERLIQUID_TIMEOUT_MS',
    'HYPERLIQUID_COINS',
  ],
  configure(env, common) {
    const settings = hyperliquidSettings(env);
    if (!settings) return undefined;
    const replayOf = common.replayed?.hyperliquid;
    return {
      id: 'hyperliquid',
      kind: 'perpetuals',
      mode: replayOf ? 'replay' : 'real',
      description: {
        upstream: replayOf ? `replay of ${replayOf}` : new URL(settings.apiUrl).host,
        network: settings.network,
        budgetPerMinute: settings.weightPerMinute,
      },
      protocols: [realVenueProtocol('hyperliquid', 'perpetuals', `Hyperliquid perpetuals (${settings.network} data, paper execution)`)],
      createSource: ({ logger, upstream }) => new HyperliquidSource('hyperliquid', settings, { logger, upstream }),
      // Paper orders against the venue's real book (its taker fee, 0.045 %).
      createExecutionVenue: ({ directory }) =>
        new OrderBookVenue({ protocolId: 'hyperliquid', markets: () => directory.ofProtocol('hyperliquid'), feeRate: '0.00045', style: 'perpetual' }),
    };
  },
};
