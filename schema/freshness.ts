import type { Freshness } from '../src/domain/freshness.js';
import { SOURCE_STATUSES } from '../src/domain/source-health.js';
import { builder } from './builder.js';

export const SourceStatusEnum = builder.enumType('SourceStatus', {
  description: 'Health of a market-data source.',
  values: SOURCE_STATUSES,
});

export const FreshnessRef = builder.objectRef<Freshness>('Freshness').implement({
  description: 'How old the data behind a response is, computed at request time.',
  fields: (t) => ({
    asOf: t.field({ type: 'DateTime', resolve: (f) => f.asOf }),
    // A whole number of ms, typed Float: GraphQL's Int stops at 2^31 ms (24.8 days), and data can be older
    // (a venue's last trade of a halted symbol): an Int here answered 500 for every market list holding one.
    freshnessMs: t.exposeFloat('freshnessMs'),
    stale: t.exposeBoolean('stale'),
    staleReason: t.exposeString('staleReason', { nullable: true }),
    sourceStatus: t.field({ type: SourceStatusEnum, resolve: (f) => f.sourceStatus }),
  }),
});
