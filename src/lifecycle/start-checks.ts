import type { GatewayConfig } from '../config/gateway-config.js';
import { readStartFiles, type StartFiles } from '../config/start-files.js';
import { checkFaultSources } from '../sources/source-faults.js';
import { selectVenues, VENUES } from '../venues/venue-registry.js';
import { ensureDataDir } from '../stores/sqlite/data-dir-lock.js';
import { replayFolders } from '../composition/replay-venues.js';

/**
 * What `npm start` checks before it loads the app (schema, server, stores: about a second of CPU):
 * the files the settings name, the venues' own variables and the simulators GATEWAY_SIM_FAULTS names, and that the data directory
 * can be one. A bad setting then fails the start in a few hundred milliseconds; the app uses the
 * files as read here. What needs the app (a port in use, Redis, the data directory's lock, actions
 * named in the controls file) is checked as it starts.
 */
export function checkStart(config: GatewayConfig): StartFiles {
  // Each venue checks its own variables; a fault may only name a simulator that runs.
  const venues = selectVenues(config.venueEnv, { simulatedMarkets: config.simulatedMarkets, simulatedFaults: config.simulatedFaults });
  if (config.replay) checkReplay(config, config.replay.dir);
  checkFaultSources(
    config.simulatedFaults,
    venues.filter((v) => v.mode === 'simulated'),
  );
  if (config.dataDir) ensureDataDir(config.dataDir);
  return readStartFiles(config);
}

/** GATEWAY_REPLAY names a folder of recordings, and no replayed venue is also pointed at the real one. */
function checkReplay(config: GatewayConfig, dir: string): void {
  for (const { venue, path } of replayFolders(dir)) {
    const variables = VENUES.find((m) => m.id === venue)?.variables ?? [];
    const set = variables.find((v) => config.venueEnv[v] !== undefined);
    if (set)
      throw new Error(`Invalid configuration: GATEWAY_REPLAY replays ${venue} from ${path}, and ${set} would point it at the real venue: set one of them`);
  }
}
