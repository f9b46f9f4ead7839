import type { AddressInfo } from 'node:net';
import { buildApp, type AppOptions, type GatewayApp } from '../../src/app.js';
import { testConfig, type GatewayConfig } from '../../src/config/gateway-config.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { GatewayStores } from '../../src/stores/gateway-stores.js';
import { SimulatedSource } from '../../src/venues/simulation/simulated-source.js';
import { prefillHistory, prefillOnConnect } from './history.js';

export interface TestGateway {
  app: GatewayApp;
  baseUrl: string;
  /** The gateway's clock; advance it to age snapshots. */
  clock: ManualClock;
  get(path: string, init?: RequestInit): Promise<Response>;
  /** Fault hook: make a simulated venue degraded or down, then poll it. */
  setFault(sourceId: string, fault: 'none' | 'degraded' | 'down'): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real gateway on an ephemeral port with a manual clock and ingest driven by the test
 * (`app.services.ingest.pollAll()`), so freshness is deterministic.
 */
export async function startGateway(overrides: Partial<GatewayConfig> = {}, at = Date.now(), options: Omit<AppOptions, 'clock'> = {}): Promise<TestGateway> {
  const clock = new ManualClock(at);
  const config = testConfig(overrides);
  const wrap = options.faults?.stores;
  const stores =
    config.mode === 'redis'
      ? (opened: GatewayStores) =>
          prefillOnConnect(
            wrap?.(opened) ?? opened,
            () => app.services.reader.directory.markets,
            () => clock.now(),
          )
      : wrap;
  const app: GatewayApp = buildApp(config, { ...options, clock, faults: { ...options.faults, stores } });
  await prefillHistory(app, clock.now());
  await app.start({ ingest: false });
  const server = app.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    baseUrl,
    clock,
    get: (path, init) => fetch(baseUrl + path, init),
    async setFault(sourceId, fault) {
      const source = app.services.sources.find((s): s is SimulatedSource => s.id === sourceId && s instanceof SimulatedSource);
      if (!source) throw new Error(`no simulated source ${sourceId}`);
      source.setFault(fault);
      await app.services.ingest.pollSource(source);
    },
    async close() {
      await app.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
