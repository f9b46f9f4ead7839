import type { ActionDefinition, ProtocolDefinition } from './protocol.js';

const since = '2026-10-01T00:00:00.000Z';
const action = (
  id: string,
  name: string,
  certification: ActionDefinition['certification'],
  visibility: ActionDefinition['visibility'] = 'public',
): ActionDefinition => ({
  id,
  name,
  visibility,
  certification,
  certifiedAt: certification === 'certified' ? since : null,
});

/**
 * The embedded default: the four paper venues, with actions in every certification state so the
 * public filter is exercised from the first start, and one hidden protocol that must never show.
 */
export const DEFAULT_PROTOCOLS: readonly ProtocolDefinition[] = [
  {
    id: 'paper-perps',
    name: 'Paper Perpetuals',
    kind: 'perpetuals',
    sourceId: 'paper-perps',
    visibility: 'public',
    certification: 'certified',
    certifiedAt: since,
    actions: [
      action('place_order', 'Place order', 'certified'),
      action('set_leverage', 'Set leverage', 'canary'),
      action('cross_margin_transfer', 'Cross-margin transfer', 'blocked'),
    ],
  },
  {
    id: 'paper-equities',
    name: 'Paper Equities Broker',
    kind: 'equities',
    sourceId: 'paper-equities',
    visibility: 'public',
    certification: 'certified',
    certifiedAt: since,
    actions: [
      action('place_order', 'Place order', 'certified'),
      action('options_order', 'Options order', 'partner_required'),
      action('short_sale', 'Short sale', 'legal_review_only'),
    ],
  },
  {
    id: 'paper-swap',
    name: 'Paper Token Swap',
    kind: 'token_swap',
    sourceId: 'paper-swap',
    visibility: 'public',
    certification: 'certified',
    certifiedAt: since,
    actions: [
      action('swap', 'Swap', 'certified'),
      action('multi_hop_swap', 'Multi-hop swap', 'canary'),
      action('limit_swap', 'Limit swap', 'certified', 'hidden'),
    ],
  },
  {
    id: 'paper-lending',
    name: 'Paper Lending',
    kind: 'lending',
    sourceId: 'paper-lending',
    visibility: 'public',
    certification: 'certified',
    certifiedAt: since,
    actions: [
      action('supply', 'Supply', 'certified'),
      action('withdraw', 'Withdraw', 'certified'),
      action('borrow', 'Borrow', 'certified'),
      action('repay', 'Repay', 'certified'),
      action('flash_loan', 'Flash loan', 'disabled'),
    ],
  },
  {
    id: 'paper-otc',
    name: 'Paper OTC Desk',
    kind: 'equities',
    sourceId: 'paper-equities',
    visibility: 'hidden',
    certification: 'certified',
    certifiedAt: since,
    actions: [action('request_for_quote', 'Request for quote', 'certified')],
  },
];
