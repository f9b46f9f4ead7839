import type { GatewayApp } from './app.js';
import { DEMO_ACCOUNT } from './auth/key-issuer.js';
import { loadConfig } from './config/gateway-config.js';
import { logsWritten } from './config/logger.js';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { listen } from './lifecycle/listen.js';
import { checkStart } from './lifecycle/start-checks.js';
import { failStart } from './lifecycle/start-failure.js';

let app: GatewayApp | undefined;
try {
  let config = loadConfig();
  const startFiles = checkStart(config);
  if (config.replay) {
    // Recorded venues served locally, their adapters pointed at them (a demo without the network).
    const { startReplays } = await import('./composition/replay-venues.js');
    const replays = await startReplays(config.replay);
    config = { ...config, venueEnv: { ...config.venueEnv, ...replays.env }, replayedVenues: replays.replayed };
  }
  // The app (schema, stores, clients) is loaded only once the settings and the files they name are
  // valid: a bad one fails in a few hundred milliseconds, not after a second of loading.
  const { buildApp } = await import('./app.js');
  app = buildApp(config, { startFiles });
  const { logger } = app.services;
  // Listen first (a port in use fails before anything is touched); until start() is done every
  // route but /healthz and /readyz answers 503 `starting`.
  const server = app.createServer();
  await listen(server, config.port, config.host);
  logger.info({ port: config.port, host: config.host, mode: config.mode }, `gateway listening on http://${config.host}:${config.port}`);
  // Every line logged, the last access lines included, reaches stdout before the process ends.
  installGracefulShutdown({ server, app, drainMs: config.shutdownDrainMs, logger, exit: (code) => void logsWritten(logger).then(() => process.exit(code)) });
  const { demoKey } = await app.start();
  if (demoKey) {
    // Shown once: only its hash is stored. Delete the data directory or use the keys CLI for another.
    process.stdout.write(
      `\nDemo API key (all scopes, shown once):\n  ${demoKey}\n  try: curl -H 'Authorization: Bearer ${demoKey}' http://localhost:${config.port}/api/v1/capabilities\n` +
        `Demo wallet: ${DEMO_ACCOUNT.wallet}, Hardhat/Anvil development account #0. ITS PRIVATE KEY IS PUBLIC: development only.\n` +
        `  sign in with it: npm run wallet -- sign-in\n\n`,
    );
  }
  logger.info({ mode: config.mode }, 'gateway ready');
} catch (err) {
  await failStart(err, app);
}
