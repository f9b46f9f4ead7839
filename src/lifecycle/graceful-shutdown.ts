import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { GatewayApp } from '../app.js';

export interface ShutdownOptions {
  server: Server;
  app: Pick<GatewayApp, 'lifecycle' | 'endStreams' | 'stop'>;
  /** How long in-flight requests may take before their connections are closed (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  logger: Logger;
  exit(code: number): void;
}

/**
 * SIGTERM and SIGINT stop the gateway gracefully: readiness turns false, the server stops
 * accepting, subscriptions complete (SSE `complete`, graphql-ws closed with 1001), in-flight
 * requests finish within `drainMs` (then their connections are cut), the ingestion lease is
 * handed back and the stores closed; exit 0. A second signal (a second later or more, or another
 * signal) exits at once with 1.
 */
/** A repeat of the first signal within this window is the same signal delivered twice, not a second one. */
const DUPLICATE_WINDOW_MS = 1_000;

export function installGracefulShutdown(options: ShutdownOptions): void {
  let stopping = false;
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // Ctrl-C under `npm start` reaches node twice (from the terminal and forwarded by npm): the same signal within a moment is one.
      if (first && first.signal === signal && Date.now() - first.at < DUPLICATE_WINDOW_MS) return;
      options.logger.warn({ signal }, 'second signal: exiting without draining');
      return options.exit(1);
    }
    stopping = true;
    first = { signal, at: Date.now() };
    shutdown(options, signal).then(
      () => options.exit(0),
      (err: unknown) => {
        options.logger.error({ err }, 'shutdown failed');
        options.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutdown({ server, app, drainMs, logger }: ShutdownOptions, signal: NodeJS.Signals): Promise<void> {
  const t0 = Date.now();
  app.lifecycle.draining = true;
  logger.info({ signal, drainMs }, 'shutting down: not ready, no new connections, draining in-flight requests');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections are closed as soon as they are idle, in-flight ones once answered.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  await app.endStreams();
  let timer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), drainMs)))]);
  clearTimeout(timer);
  clearInterval(sweep);
  if (!drained) {
    const open = await new Promise<number>((resolve) => server.getConnections((_, n) => resolve(n)));
    logger.warn({ open, drainMs }, 'drain time over: closing the connections still open');
    server.closeAllConnections();
    await closed;
  }
  await app.stop();
  logger.info({ signal, ms: Date.now() - t0, drained }, 'stopped');
}
