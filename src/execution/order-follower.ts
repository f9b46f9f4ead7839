import type { ExecutionDeps } from './execution-deps.js';
import { applyVenueOrder, routedMarketOf, withOrderLock } from './routed-orders.js';
import { isRoutedVenue, type RoutedOrderState, type RoutedVenue } from './venues/routed-venue.js';

const POLL_BATCH = 200;

/**
 * Keeps routed executions in step with their venues: each venue's order stream moves the
 * execution of the client order id it names (open → partially filled → filled or cancelled),
 * once per update, without asking about each order. While a venue's stream is down, and once
 * whenever following starts (a restart, a lease handed over), the resting orders are looked up
 * instead: an order is never silently lost. Runs where ingestion runs (one replica of a fleet).
 */
export class OrderFollower {
  private readonly stops: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ExecutionDeps,
    private readonly pollEveryMs = 15_000,
  ) {}

  private venues(): RoutedVenue[] {
    return [...this.deps.venues.values()].filter(isRoutedVenue);
  }

  start(): void {
    const venues = this.venues();
    if (venues.length === 0) return;
    for (const venue of venues) this.stops.push(venue.follow((state) => void this.onUpdate(venue, state)));
    void this.pollResting(true);
    this.timer = setInterval(() => void this.pollResting(false), this.pollEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const stop of this.stops.splice(0)) stop();
  }

  /** One update from a venue's stream: the execution of its client order id moves, if it is news. */
  async onUpdate(venue: RoutedVenue, state: RoutedOrderState): Promise<void> {
    const { deps } = this;
    try {
      const e = await deps.executions.findByClientOrderId(state.clientOrderId);
      if (!e || e.protocol !== venue.protocolId) return; // an order this gateway did not place
      // Its writes share one commit (the lock is free again before that commit is waited for).
      await deps.durability.together(() => withOrderLock(deps, e.id, (stored) => applyVenueOrder(deps, stored, state, { via: 'order stream' })));
    } catch (err) {
      deps.logger.warn(
        { venue: venue.protocolId, err: err instanceof Error ? err.message : String(err) },
        'order update not recorded; the next look-up records it',
      );
    }
  }

  /** Looks up the resting orders of every venue whose stream is down (of every venue when `all`). */
  async pollResting(all: boolean): Promise<void> {
    const { deps } = this;
    const venues = this.venues().filter((v) => all || !v.followAlive());
    if (venues.length === 0) return;
    try {
      for (const e of await deps.executions.listResting(POLL_BATCH)) {
        const venue = venues.find((v) => v.protocolId === e.protocol);
        const market = routedMarketOf(deps, e);
        if (!venue || !market || !e.order) continue;
        const state = await venue.lookup(e.order.clientOrderId, market);
        if (state) await deps.durability.together(() => withOrderLock(deps, e.id, (stored) => applyVenueOrder(deps, stored, state, { via: 'look-up' })));
      }
    } catch (err) {
      deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'resting orders not looked up; next round');
    }
  }
}
