import type { GatewayConfig } from '../config/gateway-config.js';
import { readStartFiles, type StartFiles } from '../config/start-files.js';
import { checkFaultSources } from '../sources/source-faults.js';
import { selectVenues } from '../venues/venue-registry.js';
import { ensureDataDir } from '../stores/sqlite/data-dir-lock.js';

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
  checkFaultSources(
    config.simulatedFaults,
    venues.filter((v) => v.mode === 'simulated'),
  );
  if (config.dataDir) ensureDataDir(config.dataDir);
  return readStartFiles(config);
}
