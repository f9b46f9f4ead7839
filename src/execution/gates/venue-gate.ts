import { orderBookView } from '../../market-data/order-book-view.js';
import type { Gate, GateContext, StandingContext } from '../gate-context.js';
import { block, pass, type GateVerdict } from '../gate-verdict.js';
import { routedVenueOf } from '../routed-orders.js';

/** The kill switch, the venue's circuit breaker and the venue's health from the data plane. */
async function standing({ deps, protocol, principal }: StandingContext): Promise<GateVerdict> {
  const kill = deps.controls.killSwitchState();
  if (kill.engaged) return block('venue', 'VENUE_UNHEALTHY', 'kill_switch', `Execution is halted: ${kill.reason ?? 'operator decision'}.`);
  const breaker = deps.controls.breakerReason(protocol.sourceId);
  if (breaker) return block('venue', 'VENUE_UNHEALTHY', 'circuit_breaker', `Orders to this venue are paused: ${breaker}.`);
  const status = await deps.reader.sourceStatus(protocol.sourceId);
  if (status !== 'healthy') return block('venue', 'VENUE_UNHEALTHY', 'venue_health', `The venue is ${status}.`);
  const routed = routedVenueOf(deps, protocol.id);
  if (routed) {
    // The venue holds one account: the operator named the gateway account it belongs to.
    if (principal.account.id !== routed.boundAccount)
      return block('venue', 'POLICY_DENIED', 'venue_account', `Orders on ${protocol.id} go to a venue account bound to another gateway account.`);
    const readiness = await deps.venueReadiness.of(routed);
    if (!readiness.ready) return block('venue', 'VENUE_UNHEALTHY', 'signer', `The ${protocol.id} signer is not ready: ${readiness.reason}.`);
  }
  return pass('venue');
}

/**
 * Then the venue prices the instruction, its market must be open, and the data the quote rests on
 * must be fresh: stale data is never an execution signal (spec).
 */
async function evaluate(ctx: GateContext): Promise<GateVerdict> {
  const health = await standing(ctx);
  if (health.status === 'block') return health;
  const priced = await ctx.priced();
  if (!priced.quote) return priced.verdict;
  const { quote } = priced;
  if (!quote.tradable.ok) return block('venue', 'VENUE_UNHEALTHY', 'market_hours', quote.tradable.reason);
  const { reader, cache } = ctx.deps;
  const market = reader.directory.resolve(quote.marketId);
  if (market) {
    const { freshness } = await reader.freshness(market, ctx.now);
    if (freshness.stale) {
      return block(
        'venue',
        'VENUE_UNHEALTHY',
        'market_data_stale',
        `Market data for ${market.id} is stale (${freshness.freshnessMs} ms old); it is not an execution signal.`,
      );
    }
    const book = market.hasOrderBook ? await cache.getOrderBook(market.id) : undefined;
    const status = await reader.sourceStatus(ctx.protocol.sourceId);
    if (book && orderBookView(market, book, status, ctx.now).freshness.stale) {
      return block('venue', 'VENUE_UNHEALTHY', 'market_data_stale', `The order book of ${market.id} is stale; it is not an execution signal.`);
    }
  }
  return pass('venue');
}

/**
 * Venue health, kill switch, circuit breaker, market hours and fresh market data (VENUE_UNHEALTHY);
 * at a real venue, its signer's readiness and the venue account's gateway account (POLICY_DENIED).
 */
export const venueGate: Gate = { name: 'venue', codes: ['VENUE_UNHEALTHY', 'POLICY_DENIED'], standing, evaluate };
