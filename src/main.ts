import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const app = buildApp(config);
const { logger } = app.services;

await app.start();
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
