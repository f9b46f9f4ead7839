import { join } from 'node:path';
import type { GatewayConfig } from '../config.js';
import { FileIdentityStore } from './file/file-identity-store.js';
import type { IdentityStore } from './identity-store.js';
import { MemoryIdentityStore } from './memory/memory-identity-store.js';

/** The identity store for a configuration; the server and the keys CLI open the same one. */
export function openIdentityStore(config: Pick<GatewayConfig, 'dataDir'>): IdentityStore {
  return config.dataDir ? new FileIdentityStore(join(config.dataDir, 'identities.json')) : new MemoryIdentityStore();
}
