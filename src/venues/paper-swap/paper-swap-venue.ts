import { SwapVenue } from '../../execution/venues/swap-venue.js';
import { paperAction, paperProtocol, simulatedVenueModule } from '../simulation/simulated-venue.js';

/** A simulated token-swap pool venue (the embedded default's): paper swaps priced from its simulated pools. */
export const paperSwap = simulatedVenueModule({
  id: 'paper-swap',
  kind: 'token_swap',
  pollIntervalMs: 2_000,
  protocols: [
    paperProtocol({
      id: 'paper-swap',
      name: 'Paper Token Swap',
      kind: 'token_swap',
      sourceId: 'paper-swap',
      actions: [
        paperAction('swap', 'Swap', 'certified'),
        paperAction('multi_hop_swap', 'Multi-hop swap', 'canary'),
        paperAction('limit_swap', 'Limit swap', 'certified', 'hidden'),
      ],
    }),
  ],
  executionVenue: (markets) => new SwapVenue('paper-swap', markets),
});
