import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import { paperAction, paperProtocol, simulatedVenueModule } from '../simulation/simulated-venue.js';

/** A simulated equities broker (the embedded default's): paper orders in its session, filled against its simulated book. */
export const paperEquities = simulatedVenueModule({
  id: 'paper-equities',
  kind: 'equities',
  pollIntervalMs: 2_000,
  protocols: [
    paperProtocol({
      id: 'paper-equities',
      name: 'Paper Equities Broker',
      kind: 'equities',
      sourceId: 'paper-equities',
      actions: [
        paperAction('place_order', 'Place order', 'certified'),
        paperAction('options_order', 'Options order', 'partner_required'),
        paperAction('short_sale', 'Short sale', 'legal_review_only'),
      ],
    }),
    // A hidden protocol beside it, which must never reach the public plane.
    paperProtocol({
      id: 'paper-otc',
      name: 'Paper OTC Desk',
      kind: 'equities',
      sourceId: 'paper-equities',
      visibility: 'hidden',
      actions: [paperAction('request_for_quote', 'Request for quote', 'certified')],
    }),
  ],
  executionVenue: (markets) => new OrderBookVenue({ protocolId: 'paper-equities', markets, feeRate: '0.0001', style: 'equity' }),
});
