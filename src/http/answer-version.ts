import type { SharedState } from '../domain/shared-state.js';
import type { MarketReader } from '../market-data/market-reader.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';

/**
 * The version of everything a public answer is computed from besides the instant: the snapshot
 * cache's writes, the protocol registry's changes and this replica's shared-state status. Undefined
 * where the snapshot cache is not versioned (Redis): such answers are rendered every time.
 */
export function answerVersion(reader: MarketReader, protocols: ProtocolRegistry, sharedState: SharedState): () => string | undefined {
  let lastShared = '';
  let sharedRevision = 0;
  return () => {
    const cache = reader.version();
    if (cache === undefined) return undefined;
    const shared = JSON.stringify(sharedState.status());
    if (shared !== lastShared) {
      lastShared = shared;
      sharedRevision += 1;
    }
    return `${cache}.${protocols.revision}.${sharedRevision}`;
  };
}
