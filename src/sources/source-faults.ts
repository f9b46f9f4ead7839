import type { MarketDataSource, SourceFault } from './market-data-source.js';

/** GATEWAY_SIM_FAULTS may only name sources that exist: a typo would otherwise start a healthy venue silently. */
export function checkFaultSources(faults: Record<string, SourceFault>, sources: readonly Pick<MarketDataSource, 'id'>[]): void {
  const known = sources.map((s) => s.id);
  const unknown = Object.keys(faults).filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    throw new Error(`GATEWAY_SIM_FAULTS: unknown source ${unknown.map((id) => `'${id}'`).join(', ')} (known: ${known.join(', ')})`);
  }
}
