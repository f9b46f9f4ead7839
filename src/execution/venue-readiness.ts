import type { RoutedVenue, VenueReadiness } from './venues/routed-venue.js';

/** How long a ready signer is taken as ready, and how soon a not-ready one is asked again. */
const READY_FOR_MS = 30_000;
const NOT_READY_FOR_MS = 2_000;

/**
 * A routed venue's readiness (its signer or keys loaded and authorised), asked of the venue at
 * most every 30 s while ready and every 2 s while not, so a gate can check it on every preview
 * without a venue round trip each time. A venue that cannot answer is not ready.
 */
export class VenueReadinessCache {
  private readonly known = new Map<RoutedVenue, { readiness: VenueReadiness; until: number; pending?: Promise<VenueReadiness> }>();

  constructor(private readonly now: () => number = Date.now) {}

  async of(venue: RoutedVenue): Promise<VenueReadiness> {
    const entry = this.known.get(venue);
    if (entry && entry.until > this.now()) return entry.readiness;
    if (entry?.pending) return entry.pending;
    const pending = venue.readiness().catch((): VenueReadiness => ({ ready: false, reason: 'the venue did not answer a readiness check' }));
    this.known.set(venue, { readiness: entry?.readiness ?? { ready: false, reason: 'not checked yet' }, until: 0, pending });
    const readiness = await pending;
    this.known.set(venue, { readiness, until: this.now() + (readiness.ready ? READY_FOR_MS : NOT_READY_FOR_MS) });
    return readiness;
  }
}
