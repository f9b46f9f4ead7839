import type { SharedState, SharedStateStatus } from '../../domain/shared-state.js';
import type { MarketReader } from '../../market-data/market-reader.js';
import type { ProtocolRegistry } from '../../protocols/protocol-registry.js';

/** Every member of the shared-state status (the compiler keeps this list whole). */
const STATUS_KEYS = Object.keys({
  mode: true,
  connected: true,
  lastError: true,
  lastErrorAt: true,
  ingestionLeader: true,
  replica: true,
  leadingReplica: true,
} satisfies Record<keyof SharedStateStatus, true>) as (keyof SharedStateStatus)[];

/**
 * The version of everything a public answer is computed from besides the instant: the snapshot
 * cache's writes, the protocol registry's changes, the market listing's changes and this
 * replica's shared-state status. Undefined
 * while the snapshot cache has no version (a Redis replica whose subscription is down): answers are
 * then rendered every time. Read on
 * every public request: the status is compared member by member and the text made only when a part moved.
 */
export function answerVersion(reader: MarketReader, protocols: ProtocolRegistry, sharedState: SharedState): () => string | undefined {
  let lastShared: SharedStateStatus | undefined;
  let sharedRevision = 0;
  let lastCache: number | undefined;
  let lastProtocols = -1;
  let lastListing = -1;
  let text = '';
  return () => {
    const cache = reader.version();
    if (cache === undefined) return undefined;
    const shared = sharedState.status();
    if (!lastShared || STATUS_KEYS.some((k) => shared[k] !== lastShared![k])) {
      lastShared = { ...shared }; // a copy: a status changed in place must still count as a change
      sharedRevision += 1;
      lastCache = undefined;
    }
    const listing = reader.directory.revision;
    if (cache !== lastCache || protocols.revision !== lastProtocols || listing !== lastListing) {
      lastCache = cache;
      lastProtocols = protocols.revision;
      lastListing = listing;
      text = `${cache}.${protocols.revision}.${sharedRevision}.${listing}`;
    }
    return text;
  };
}
