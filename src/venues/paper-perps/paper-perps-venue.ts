import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { paperAction, paperProtocol, simulatedVenueModule } from '../simulation/simulated-venue.js';

/** Simulated perpetuals (the embedded default's perpetuals venue): paper orders filled against its simulated book. */
export const paperPerps = simulatedVenueModule({
  id: 'paper-perps',
  kind: 'perpetuals',
  pollIntervalMs: 1_000,
  protocols: [
    paperProtocol({
      id: 'paper-perps',
      name: 'Paper Perpetuals',
      kind: 'perpetuals',
      sourceId: 'paper-perps',
      actions: [
        paperAction('place_order', 'Place order', 'certified'),
        paperAction('set_leverage', 'Set leverage', 'canary'),
        paperAction('cross_margin_transfer', 'Cross-margin transfer', 'blocked'),
      ],
    }),
  ],
  executionVenue: (markets) => new OrderBookVenue({ protocolId: 'paper-perps', markets, feeRate: '0.0005', style: 'perpetual' }),
});
