import type { Logger } from 'pino';
import type { Exchange } from '../pipeline/exchange.js';
import { accessLog, type AccessLog } from '../operations/access-log.js';
import type { GatewayMetrics } from '../operations/gateway-metrics.js';
import type { LifecycleState } from '../operations/readiness.js';

export interface RequestObserverOptions {
  metrics: GatewayMetrics;
  lifecycle: LifecycleState;
  /** The access logger; undefined turns access logs off. */
  logger: Logger | undefined;
}

/**
 * What every request over the network meets before its stages: its connection closes after it
 * while the gateway drains, and when it ends it is counted in the metrics and the access log
 * under its route's template, with the method it was received with (a HEAD is served as GET).
 */
export class RequestObserver {
  private readonly log: AccessLog | undefined;

  constructor(private readonly options: RequestObserverOptions) {
    this.log = options.logger ? accessLog(options.logger) : undefined;
  }

  observe(exchange: Exchange, receivedMethod: string): void {
    const { req, res } = exchange.node!;
    const template = exchange.route.template;
    if (this.options.lifecycle.draining) res.setHeader('connection', 'close');
    const started = performance.now();
    const url = req.url ?? '/';
    const { metrics } = this.options;
    const sse = exchange.route.serves === 'graphql' && (req.headers.accept ?? '').includes('text/event-stream');
    if (sse) metrics.sseOpened();
    // One listener for the metrics and the access log ('close' comes once: no once() wrapper to remove).
    const log = this.log;
    res.on('close', () => {
      if (sse) metrics.sseClosed();
      const elapsedMs = performance.now() - started;
      metrics.observe(receivedMethod, template, res.statusCode, elapsedMs / 1000);
      log?.({ exchange, receivedMethod, url, route: template }, res, elapsedMs);
    });
  }
}
