import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { realVenueProtocol, type VenueModule } from '../venue-module.js';
import { AlpacaSource } from './alpaca-source.js';
import { alpacaSettings } from './alpaca-settings.js';

/**
 * Alpaca's US equities: real market data from its data API and stock stream through its SDK,
 * orders filled on paper against the venue's top of book in the regular session (the market
 * clock's). Turned on by ALPACA_KEY_ID and ALPACA_SECRET_KEY; without them the simulated broker
 * (paper-equities) stays.
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
  ],
  configure(env) {
    const settings = alpacaSettings(env);
    if (!settings) return undefined;
    return {
      id: 'alpaca',
      kind: 'equities',
      mode: 'real',
      // Hosts, feed and budget only: the keys stay in the settings.
      description: { upstream: new URL(settings.dataUrl).host, network: settings.network, feed: settings.feed, budgetPerMinute: settings.requestsPerMinute },
      protocols: [realVenueProtocol('alpaca', 'equities', `Alpaca US equities (${settings.feed.toUpperCase()} data, paper execution)`)],
      createSource: ({ logger, upstream }) => new AlpacaSource('alpaca', settings, { logger, upstream }),
      // Paper orders against the venue's top of book, without fee: Alpaca charges no commission on US equities.
      createExecutionVenue: ({ directory }) =>
        new OrderBookVenue({ protocolId: 'alpaca', markets: () => directory.ofProtocol('alpaca'), feeRate: '0', style: 'equity' }),
    };
  },
};
