import { orderBookFreshnessBasis, orderBookView, type OrderBookView } from '../../src/market-data/order-book-view.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { timedEnvelope, type PublicEnvelope } from './envelope.js';
import { notFound } from '../../src/errors/error-factories.js';
import { orderBookUnavailable } from '../../src/errors/availability-refusals.js';

/**
 * Spec, Order book rules: from the snapshot cache only; 404 when the market is unknown or has
 * no public book, 503 when the read-only book source is unavailable.
 */
export const PUBLIC_BOOK_CODES = { notAvailable: 'public_orderbook_not_available', unavailable: 'public_orderbook_unavailable' } as const;

export async function orderBookEnvelope(
  ctx: GatewayContext,
  asset: string,
  codes: { notAvailable: string; unavailable: string } = PUBLIC_BOOK_CODES,
): Promise<PublicEnvelope<Omit<OrderBookView, 'freshness'>>> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  // Read before the data: an answer is reused only while no write came after this version.
  const version = ctx.services.answerVersion();
  const market = reader.directory.resolve(asset);
  if (!market || !market.hasOrderBook) {
    throw notFound(codes.notAvailable, `No public order book for '${asset}'.`, {
      nextAction: 'List markets with GET /api/v1/public/markets; only markets with hasOrderBook=true have one.',
    });
  }
  const status = await reader.sourceStatus(market.sourceId);
  const book = status === 'down' ? undefined : await reader.orderBook(market.id);
  if (!book) {
    throw orderBookUnavailable(codes.unavailable, market.id);
  }
  const { freshness: _freshness, ...view } = orderBookView(market, book, status, now);
  return timedEnvelope(view, { version, now, freshness: [orderBookFreshnessBasis(book, status)] });
}
