import { DEFAULT_MARKET_COUNT, simulatedCatalogue } from './market-catalogue.js';
import type { MarketDefinition } from '../domain/market.js';
import { SimulatedSource } from './simulated-source.js';

const POLL_INTERVAL_MS: Record<string, number> = {
  'paper-perps': 1_000,
  'paper-equities': 2_000,
  'paper-swap': 2_000,
  'paper-lending': 5_000,
};

/** The simulated sources' ids (what GATEWAY_SIM_FAULTS may name), whatever the catalogue's size. */
export const SIMULATED_SOURCE_IDS = Object.keys(POLL_INTERVAL_MS);

/** One simulated source per protocol in a catalogue of `marketCount` markets (GATEWAY_SIM_MARKETS). */
export function createSimulatedSources(marketCount = DEFAULT_MARKET_COUNT): SimulatedSource[] {
  const bySource = new Map<string, MarketDefinition[]>();
  for (const m of simulatedCatalogue(marketCount)) bySource.set(m.sourceId, [...(bySource.get(m.sourceId) ?? []), m]);
  return [...bySource].map(([id, markets]) => new SimulatedSource(id, markets, POLL_INTERVAL_MS[id] ?? 2_000));
}
