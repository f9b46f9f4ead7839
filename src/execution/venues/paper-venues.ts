import type { MarketDirectory } from '../../market-data/market-directory.js';
import type { ExecutionVenue } from './execution-venue.js';
import { LendingVenue } from './lending-venue.js';
import { OrderBookVenue } from './order-book-venue.js';
import { SwapVenue } from './swap-venue.js';

/** The four paper venues behind one interface, keyed by protocol id. */
export function createPaperVenues(directory: MarketDirectory): Map<string, ExecutionVenue> {
  const venues: ExecutionVenue[] = [
    new OrderBookVenue({ protocolId: 'paper-perps', markets: directory.ofProtocol('paper-perps'), feeRate: '0.0005', style: 'perpetual' }),
    new OrderBookVenue({ protocolId: 'paper-equities', markets: directory.ofProtocol('paper-equities'), feeRate: '0.0001', style: 'equity' }),
    new SwapVenue('paper-swap', directory.ofProtocol('paper-swap')),
    new LendingVenue('paper-lending', directory.ofProtocol('paper-lending')),
  ];
  return new Map(venues.map((v) => [v.protocolId, v]));
}
