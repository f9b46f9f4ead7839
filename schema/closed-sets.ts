import { APPROVAL_STATES } from '../src/execution/execution-types.js';
import { builder } from './builder.js';

/** Closed sets the graph carries as enums (values are the wire strings, unchanged). */
export const ApprovalStateEnum = builder.enumType('ApprovalState', { values: APPROVAL_STATES });
export const OrderSideEnum = builder.enumType('OrderSide', { description: 'Side of an order or a quote.', values: ['buy', 'sell'] as const });
export const PositionSideEnum = builder.enumType('PositionSide', { description: 'Side of a perpetual position.', values: ['long', 'short'] as const });
export const CacheWarmthEnum = builder.enumType('CacheWarmth', {
  description: 'warm: every market has a snapshot; partial: some; cold: none.',
  values: ['warm', 'partial', 'cold'] as const,
});
