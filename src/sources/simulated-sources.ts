import { SIMULATED_MARKETS } from './market-catalogue.js';
import { SimulatedSource } from './simulated-source.js';

const POLL_INTERVAL_MS: Record<string, number> = {
  'paper-perps': 1_000,
  'paper-equities': 2_000,
  'paper-swap': 2_000,
  'paper-lending': 5_000,
};

/** One simulated source per protocol in the catalogue. */
export function createSimulatedSources(): SimulatedSource[] {
  const bySource = new Map<string, (typeof SIMULATED_MARKETS)[number][]>();
  for (const m of SIMULATED_MARKETS) bySource.set(m.sourceId, [...(bySource.get(m.sourceId) ?? []), m]);
  return [...bySource].map(([id, markets]) => new SimulatedSource(id, markets, POLL_INTERVAL_MS[id] ?? 2_000));
}
