import { LendingVenue } from '../../execution/venues/lending-venue.js';
import { paperAction, paperProtocol, simulatedVenueModule } from '../simulation/simulated-venue.js';

/** A simulated lending pool (the embedded default's): paper supply, withdraw, borrow and repay at its simulated rates. */
export const paperLending = simulatedVenueModule({
  id: 'paper-lending',
  kind: 'lending',
  pollIntervalMs: 5_000,
  protocols: [
    paperProtocol({
      id: 'paper-lending',
      name: 'Paper Lending',
      kind: 'lending',
      sourceId: 'paper-lending',
      actions: [
        paperAction('supply', 'Supply', 'certified'),
        paperAction('withdraw', 'Withdraw', 'certified'),
        paperAction('borrow', 'Borrow', 'certified'),
        paperAction('repay', 'Repay', 'certified'),
        paperAction('flash_loan', 'Flash loan', 'disabled'),
      ],
    }),
  ],
  executionVenue: (markets) => new LendingVenue('paper-lending', markets),
});
