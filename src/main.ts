import { buildApp } from './app.js';
import { DEMO_ACCOUNT } from './auth/key-issuer.js';
import { loadConfig } from './config/gateway-config.js';
import { DataDirLockedError } from './stores/sqlite/data-dir-lock.js';

const config = loadConfig();
const app = (() => {
  try {
    return buildApp(config);
  } catch (err) {
    // Another gateway owns the data directory: one line, exit 1, nothing touched.
    if (!(err instanceof DataDirLockedError)) throw err;
    process.stderr.write(`gateway: ${err.message}\n`);
    process.exit(1);
  }
})();
const { logger } = app.services;

const { demoKey } = await app.start();
if (demoKey) {
  // Shown once: only its hash is stored. Delete the data directory or use the keys CLI for another.
  process.stdout.write(
    `\nDemo API key (all scopes, shown once):\n  ${demoKey}\n  try: curl -H 'Authorization: Bearer ${demoKey}' http://localhost:${config.port}/api/v1/capabilities\n` +
      `Demo wallet: ${DEMO_ACCOUNT.wallet}, Hardhat/Anvil development account #0. ITS PRIVATE KEY IS PUBLIC: development only.\n` +
      `  sign in with it: npm run wallet -- sign-in\n\n`,
  );
}
const server = app.createServer();
server.listen(config.port, config.host, () => {
  logger.info({ port: config.port, host: config.host, mode: config.mode }, `gateway listening on http://${config.host}:${config.port}`);
});

const shutdown = (signal: string) => {
  logger.info({ signal }, 'shutting down');
  server.close();
  server.closeAllConnections();
  void app.stop().then(() => process.exit(0));
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
