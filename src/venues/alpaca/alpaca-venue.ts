import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { realVenueProtocol, type VenueModule } from '../venue-module.js';
import { AlpacaSource } from './alpaca-source.js';
import { alpacaSettings } from './alpaca-settings.js';
import { AlpacaTrading } from './alpaca-trading.js';

/**
 * Alpaca's US equities: real market data from its data API and stock stream through its SDK;
 * orders filled on paper against the venue's top of book in the regular session (the market
 * clock's), or, with ALPACA_ORDERS=paper, routed to Alpaca paper trading for the one gateway
 * account ALPACA_ORDERS_ACCOUNT (live trading is refused by configuration). Turned on by
 * ALPACA_KEY_ID and ALPACA_SECRET_KEY; without them the simulated broker (paper-equities) stays.
 */
export const alpaca: VenueModule = {
  id: 'alpaca',
  kind: 'equities',
  mode: 'real',
  variables: [
    'ALPACA_KEY_ID',
    'ALPACA_SECRET_KEY',
    'ALPACA_PAPER',
    'ALPACA_TRADING_URL',
    'ALPACA_DATA_URL',
    'ALPACA_DATA_STREAM_URL',
    'ALPACA_FEED',
    'ALPACA_SYMBOLS',
    'ALPACA_REQUESTS_PER_MINUTE',
    'ALPACA_POLL_MS',
    'ALPACA_TIMEOUT_MS',
    'ALPACA_ORDERS',
    'ALPACA_ORDERS_ACCOUNT',
  ],
  configure(env) {
    const settings = alpacaSettings(env);
    if (!settings) return undefined;
    const orders = settings.orders;
    const execution = orders ? 'paper trading' : 'paper execution';
    return {
      id: 'alpaca',
      kind: 'equities',
      mode: 'real',
      // Hosts, feed, budget and where orders go: the keys stay in the settings (the bound account is the operator's, not shown).
      description: {
        upstream: new URL(settings.dataUrl).host,
        network: settings.network,
        feed: settings.feed,
        budgetPerMinute: settings.requestsPerMinute,
        ...(orders ? { orders: 'alpaca-paper' } : {}),
      },
      protocols: [realVenueProtocol('alpaca', 'equities', `Alpaca US equities (${settings.feed.toUpperCase()} data, ${execution})`)],
      createSource: ({ logger, upstream }) => new AlpacaSource('alpaca', settings, { logger, upstream }),
      createExecutionVenue: ({ directory, logger, upstream, clock }) =>
        orders
          ? new AlpacaTrading('alpaca', settings, orders.account, { directory, logger, upstream, now: () => clock.now() })
          : // Paper orders against the venue's top of book, without fee: Alpaca charges no commission on US equities.
            new OrderBookVenue({ protocolId: 'alpaca', markets: () => directory.ofProtocol('alpaca'), feeRate: '0', style: 'equity' }),
    };
  },
};
