import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { realVenueProtocol, type VenueModule } from '../venue-module.js';
import { ORDER_VARIABLES } from './hyperliquid-order-settings.js';
import { TAKER_FEE } from './hyperliquid-quote-rules.js';
import { hyperliquidBudget, HyperliquidSource } from './hyperliquid-source.js';
import { hyperliquidSettings } from './hyperliquid-settings.js';
import { HyperliquidTrading } from './hyperliquid-trading.js';

/**
 * Hyperliquid perpetuals: real market data from the venue's info API and WebSocket (no key
 * needed), turned on by HYPERLIQUID_NETWORK. Orders are filled on paper against its real book,
 * unless an API wallet's key is set (HYPERLIQUID_AGENT_KEY or _FILE): then they are routed to the
 * venue for HYPERLIQUID_ACCOUNT (testnet by default; mainnet only with HYPERLIQUID_MAINNET_ORDERS=yes).
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
    ...ORDER_VARIABLES,
  ],
  configure(env, common) {
    const settings = hyperliquidSettings(env);
    if (!settings) return undefined;
    const replayOf = common.replayed?.hyperliquid;
    const { orders } = settings;
    const execution = orders ? `${settings.network} orders` : 'paper execution';
    const budget = hyperliquidBudget(settings);
    return {
      id: 'hyperliquid',
      kind: 'perpetuals',
      mode: replayOf ? 'replay' : 'real',
      description: {
        upstream: replayOf ? `replay of ${replayOf}` : new URL(settings.apiUrl).host,
        network: settings.network,
        budgetPerMinute: settings.weightPerMinute,
        // Public: where orders go and the venue account's address; never the API wallet's key.
        ...(orders ? { orders: settings.network, account: orders.account } : {}),
      },
      protocols: [realVenueProtocol('hyperliquid', 'perpetuals', `Hyperliquid perpetuals (${settings.network} data, ${execution})`)],
      // One weight budget for the venue: the market data and the orders spend the same per-IP limit.
      createSource: ({ logger, upstream }) => new HyperliquidSource('hyperliquid', settings, { logger, upstream, budget }),
      createExecutionVenue: ({ directory, logger }) => {
        const markets = () => directory.ofProtocol('hyperliquid');
        // Routed to the venue with an API wallet; else paper orders against its real book (its taker fee, 0.045 %).
        if (orders) return new HyperliquidTrading('hyperliquid', { ...settings, orders }, { markets, logger, budget });
        return new OrderBookVenue({ protocolId: 'hyperliquid', markets, feeRate: TAKER_FEE, style: 'perpetual' });
      },
    };
  },
};
