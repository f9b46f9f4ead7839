import type { ObjectRef } from '@pothos/core';
import type { PublicEnvelope } from '../resolvers/public/envelope.js';
import { builder } from './builder.js';
import { FreshnessRef } from './freshness.js';

/** The spec's public envelope around one route's payload type. */
/* eslint-disable @typescript-eslint/no-explicit-any -- Pothos refs of any payload type; each caller is typed by its own ref. */
export function envelopeType<T>(name: string, data: ObjectRef<any, T> | [ObjectRef<any, T>], options: { nullableData?: boolean; description: string }) {
  return builder.objectRef<PublicEnvelope<any>>(name).implement({
    description: options.description,
    fields: (t) => ({
      schemaVersion: t.exposeString('schemaVersion'),
      generatedAt: t.field({ type: 'DateTime', resolve: (e) => e.generatedAt }),
      freshness: t.field({ type: FreshnessRef, resolve: (e) => e.freshness }),
      data: t.field({ type: data as any, nullable: options.nullableData ?? false, resolve: (e) => e.data }),
    }),
  });
}
