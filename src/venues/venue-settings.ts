import { z } from 'zod';
import type { VenueEnv } from './venue-module.js';

/** An optional URL variable whose scheme is one of `protocols` (e.g. /^https?:$/). */
export const urlVariable = (protocols: RegExp) =>
  z
    .string()
    .refine((u) => URL.canParse(u) && protocols.test(new URL(u).protocol), `expected a ${protocols.source.replace(/[\\^$()]/g, '')} URL`)
    .optional();

/** A venue's variables parsed by its schema; a variable set wrong throws naming it (never echoing a value). */
export function parseVenueEnv<S extends z.ZodType>(schema: S, source: VenueEnv): z.output<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The first variable with `prefix` that is set (a venue's variable set while the venue is off is a mistake worth stopping on). */
export function strayVariable(prefix: string, source: VenueEnv): string | undefined {
  return Object.keys(source).find((k) => k.startsWith(prefix) && source[k] !== undefined);
}

/** Polls may spend at most three quarters of a venue's budget: history needs the rest. Throws naming both variables. */
export function checkPollShare(
  polls: { variable: string; ms: number; perMinute: number },
  budget: { variable: string; perMinute: number; unit: string },
): void {
  if (polls.perMinute <= budget.perMinute * 0.75) return;
  throw new Error(
    `Invalid configuration: ${polls.variable}=${polls.ms} spends ${polls.perMinute} ${budget.unit} a minute on polls alone, ` +
      `more than three quarters of ${budget.variable}=${budget.perMinute} (history needs the rest): poll less often or raise the budget`,
  );
}
