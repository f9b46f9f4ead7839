import type { ExecutionDeps } from './execution-deps.js';
import { isRoutedVenue, type RoutedVenue, type VenueAccount } from './venues/routed-venue.js';

/** A real venue's account as the gateway shows it: the venue's own truth, beside the paper ledger. */
export interface VenueAccountView {
  protocol: string;
  /** The venue's account (an address, an account number): never a credential. */
  account: string | null;
  available: { token: string; amount: string }[];
  equity: { token: string; amount: string }[];
  positions: VenueAccount['positions'];
  /** The venue's time of this state (ISO), null when it could not be read. */
  asOf: string | null;
  /** Why the venue's account could not be read now (nothing else is guessed in its place). */
  unavailable: string | null;
}

/** How long one read of a venue's account is shown before the venue is asked again. */
const ACCOUNT_CACHE_MS = 2_000;

const amounts = (byToken: Record<string, string>) => Object.entries(byToken).map(([token, amount]) => ({ token, amount }));

/**
 * The accounts real venues hold for a gateway account (each venue account belongs to one gateway
 * account): read from the venue, at most every two seconds, never mixed into the paper ledger.
 */
export class VenueAccounts {
  private readonly recent = new Map<RoutedVenue, { at: number; read: Promise<VenueAccountView> }>();

  constructor(private readonly deps: Pick<ExecutionDeps, 'venues' | 'clock' | 'logger'>) {}

  /** The venue accounts bound to a gateway account (none when no real venue takes its orders). */
  async of(accountId: string): Promise<VenueAccountView[]> {
    const bound = [...this.deps.venues.values()].filter(isRoutedVenue).filter((v) => v.boundAccount === accountId);
    return Promise.all(bound.map((v) => this.read(v)));
  }

  private read(venue: RoutedVenue): Promise<VenueAccountView> {
    const now = this.deps.clock.now();
    const cached = this.recent.get(venue);
    if (cached && now - cached.at < ACCOUNT_CACHE_MS) return cached.read;
    const read = venue.account().then(
      (a): VenueAccountView => ({
        protocol: venue.protocolId,
        account: a.account,
        available: amounts(a.available),
        equity: amounts(a.equity),
        positions: a.positions,
        asOf: new Date(a.at).toISOString(),
        unavailable: null,
      }),
      (err: unknown): VenueAccountView => {
        this.deps.logger.warn({ venue: venue.protocolId, err: err instanceof Error ? err.message : String(err) }, 'venue account unreadable');
        this.recent.delete(venue);
        return {
          protocol: venue.protocolId,
          account: null,
          available: [],
          equity: [],
          positions: [],
          asOf: null,
          unavailable: 'The venue did not answer; try again shortly.',
        };
      },
    );
    this.recent.set(venue, { at: now, read });
    return read;
  }
}
