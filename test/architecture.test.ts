import { createRequire } from 'node:module';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs');

/** Runs dependency-cruiser with the layer rules (README, Architecture) over the source tree. */
async function violations(): Promise<string[]> {
  const result: IReporterOutput = await cruise(['src', 'schema', 'resolvers', 'codegen.ts'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  if (typeof result.output === 'string') throw new Error(result.output);
  return result.output.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`,
  );
}

describe('architecture', () => {
  it('has no import cycle and no upward import between layers', async () => {
    expect(await violations()).toEqual([]);
  }, 60_000);
});
