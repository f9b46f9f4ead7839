import { z } from 'zod';
import { DECIMAL_PATTERN } from '../../src/domain/validators.js';

const decimal = z.string().regex(DECIMAL_PATTERN).describe('Decimal string');
const asset = z.string().min(1).describe('A market id or asset symbol');
const dateTime = z.string().describe('RFC 3339 date-time');

/**
 * Trigger nodes: conditions a workflow evaluates on a subscription's events. Inputs are the
 * condition, outputs what the trigger hands to the next node.
 */
export const TRIGGERS = [
  {
    id: 'trigger.price_threshold',
    title: 'Price crosses a threshold',
    description: 'Fires when a market price crosses above or below a level (subscription marketUpdated). Stale prices never fire it.',
    subscription: 'marketUpdated',
    input: z.object({ asset, above: decimal.optional(), below: decimal.optional() }),
    output: z.object({ marketId: z.string(), asset: z.string(), price: decimal, crossed: z.enum(['above', 'below']), asOf: dateTime }),
  },
  {
    id: 'trigger.funding_threshold',
    title: 'Funding rate crosses a threshold',
    description:
      'Fires when a perpetual funding rate, annualised in percent, leaves a band (subscription marketUpdated). Monitoring only, not an execution signal.',
    subscription: 'marketUpdated',
    input: z.object({ asset, minAnnualizedPct: decimal.optional(), maxAnnualizedPct: decimal.optional() }),
    output: z.object({ marketId: z.string(), fundingRate: decimal, annualizedPct: decimal, asOf: dateTime }),
  },
  {
    id: 'trigger.freshness_change',
    title: 'Market data freshness changes',
    description: 'Fires when a market turns stale or fresh, or its source status changes (subscription freshnessChanged).',
    subscription: 'freshnessChanged',
    input: z.object({ asset: asset.optional(), onlyStale: z.boolean().optional() }),
    output: z.object({
      marketId: z.string(),
      asset: z.string(),
      freshness: z.object({
        asOf: dateTime,
        freshnessMs: z.number().int(),
        stale: z.boolean(),
        staleReason: z.string().nullable(),
        sourceStatus: z.enum(['healthy', 'degraded', 'down', 'unknown']),
      }),
    }),
  },
] as const;
