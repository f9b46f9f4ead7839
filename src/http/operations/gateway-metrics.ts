import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SharedState } from '../../domain/shared-state.js';
import type { SourceHealth } from '../../domain/source-health.js';
import type { GatewayEvents } from '../../events/gateway-events.js';
import type { UpstreamReport } from '../../sources/market-data-source.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';

export interface MetricsSources {
  /** Open graphql-ws sockets. */
  openSockets(): number;
  /** Each real venue's upstream: weight spent in the last minute against its budget. */
  upstreams(): { venue: string; report: UpstreamReport }[];
  sharedState: SharedState;
  healthBySource(): Promise<Map<string, SourceHealth>>;
  now(): number;
  events: GatewayEvents;
}

/**
 * What GET /metrics exposes (Prometheus text format), on a registry of this server's own so
 * several gateways in one process (tests) never share counters.
 */
export class GatewayMetrics implements UpstreamObserver {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly sse: Gauge;
  private readonly operations: Counter<'type' | 'via'>;
  private readonly outcomes: Counter<'outcome' | 'code'>;
  private readonly rateLimited: Counter<'policy'>;
  private readonly storeCalls: Histogram<'store' | 'method' | 'ok'>;
  private readonly upstreamRequests: Counter<'venue' | 'type' | 'outcome'>;
  private readonly ingestLag: Gauge<'venue'>;
  private readonly reconnects: Counter<'venue'>;
  /** Label children by `method route status`: observing one skips prom-client's label hashing. */
  private readonly series = new Map<string, ReturnType<Histogram['labels']>>();
  private readonly storeSeries = new Map<string, ReturnType<Histogram['labels']>>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'HTTP requests by method, route template (or /graphql, an operations route, "unmatched") and status; for SSE the stream lifetime',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.sse = new Gauge({ name: 'gateway_sse_streams_open', help: 'Open GraphQL SSE streams', registers });
    this.operations = new Counter({
      name: 'gateway_graphql_operations_total',
      help: 'GraphQL operations executed, by type and way in (rest: a contract route; graphql: /graphql over HTTP, SSE or graphql-ws)',
      labelNames: ['type', 'via'],
      registers,
    });
    this.outcomes = new Counter({
      name: 'gateway_execute_outcomes_total',
      help: 'Answers to execute (REST and GraphQL): outcome is the execution state answered, or "refused"; code is the refusal code (gate or error), "none" otherwise',
      labelNames: ['outcome', 'code'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'gateway_rate_limit_rejections_total',
      help: 'Requests and graphql-ws operations refused 429 by the rate limiter, by policy',
      labelNames: ['policy'],
      registers,
    });
    this.storeCalls = new Histogram({
      name: 'gateway_store_call_duration_seconds',
      help: 'Identity and execution store calls (SQLite or Redis) by store, method and success',
      labelNames: ['store', 'method', 'ok'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5],
      registers,
    });
    this.upstreamRequests = new Counter({
      name: 'gateway_upstream_requests_total',
      help: 'Requests a real venue adapter made, by venue, request type and outcome (200, 429, 5xx, timeout, error)',
      labelNames: ['venue', 'type', 'outcome'],
      registers,
    });
    this.ingestLag = new Gauge({
      name: 'gateway_upstream_data_age_seconds',
      help: "Per venue: how old the venue's newest figure was (by the venue's own time) when ingest wrote it, at the latest poll or streamed batch",
      labelNames: ['venue'],
      registers,
    });
    this.reconnects = new Counter({
      name: 'gateway_upstream_stream_reconnects_total',
      help: "Reconnections of a real venue's stream, by venue",
      labelNames: ['venue'],
      registers,
    });
    const budget = new Gauge({
      name: 'gateway_upstream_budget_used_ratio',
      help: 'Per real venue: request weight spent in the last minute as a share of its budget (its market data never passes 1; orders charged without waiting may take it above)',
      labelNames: ['venue'],
      registers,
      collect() {
        for (const { venue, report } of sources.upstreams()) budget.set({ venue }, report.weightLastMinute / report.budgetPerMinute);
      },
    });
    new Gauge({
      name: 'gateway_graphql_ws_sockets_open',
      help: 'Open graphql-ws sockets',
      registers,
      collect() {
        this.set(sources.openSockets());
      },
    });
    new Gauge({
      name: 'gateway_shared_state_connected',
      help: '1 while shared state is reachable (always 1 in embedded mode), else 0',
      registers,
      collect() {
        this.set(sources.sharedState.status().connected ? 1 : 0);
      },
    });
    const lag = new Gauge({
      name: 'gateway_ingest_lag_seconds',
      help: 'Per source: seconds since its last successful poll (ingestion lag)',
      labelNames: ['source'],
      registers,
      async collect() {
        const health = await sources.healthBySource().catch(() => new Map<string, SourceHealth>());
        for (const h of health.values()) if (h.lastSuccessAt !== null) lag.set({ source: h.sourceId }, (sources.now() - h.lastSuccessAt) / 1000);
      },
    });
    const status = new Gauge({
      name: 'gateway_source_status',
      help: 'Per source: 1 for its current status (healthy, degraded, down, unknown)',
      labelNames: ['source', 'status'],
      registers,
      async collect() {
        const health = await sources.healthBySource().catch(() => new Map<string, SourceHealth>());
        status.reset();
        for (const h of health.values()) status.set({ source: h.sourceId, status: h.status }, 1);
      },
    });
    const executions = new Counter({
      name: 'gateway_execution_updates_total',
      help: 'Execution state changes seen by this process, by state (in Redis mode: every replica sees the fleet)',
      labelNames: ['state'],
      registers,
    });
    // Counted as they come; a subscription ended by an overflow (a reader far behind) is made again.
    void (async () => {
      for (;;) {
        try {
          const updates = sources.events.subscribe('execution:updated') as AsyncIterable<{ state: string }>;
          for await (const execution of updates) executions.inc({ state: execution.state });
          return; // the bus ended the topic: shutdown
        } catch {
          // SubscriptionOverflow: subscribe again (after a pause, never a busy loop)
          await new Promise((resolve) => setTimeout(resolve, 100).unref());
        }
      }
    })();
  }

  request(venue: string, type: string, outcome: string): void {
    this.upstreamRequests.inc({ venue, type, outcome });
  }

  reconnect(venue: string): void {
    this.reconnects.inc({ venue });
  }

  ingested(venue: string, lagMs: number): void {
    this.ingestLag.set({ venue }, Math.max(0, lagMs) / 1000);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (series === undefined) this.series.set(key, (series = this.requests.labels(method, route, String(status))));
    series.observe(seconds);
  }

  executeOutcome(outcome: string, code: string): void {
    this.outcomes.inc({ outcome, code });
  }

  rateLimitRejection(policy: string): void {
    this.rateLimited.inc({ policy });
  }

  storeCall(store: string, method: string, seconds: number, ok: boolean): void {
    const key = `${store} ${method} ${ok}`;
    let series = this.storeSeries.get(key);
    if (series === undefined) this.storeSeries.set(key, (series = this.storeCalls.labels(store, method, String(ok))));
    series.observe(seconds);
  }

  operation(type: string, via: string): void {
    this.operations.inc({ type, via });
  }

  sseOpened(): void {
    this.sse.inc();
  }

  sseClosed(): void {
    this.sse.dec();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * Counts executed GraphQL operations by type and by way in: `rest` when a contract route ran it,
 * `graphql` for /graphql over HTTP, SSE or graphql-ws. A public read answered from the answer
 * cache runs no operation and is counted in the request histogram only.
 */
export function useOperationMetrics(metrics: () => GatewayMetrics | undefined): Plugin {
  const count = (args: { document: DocumentNode; operationName?: string | null; contextValue: unknown }) => {
    const type = getOperationAST(args.document, args.operationName)?.operation ?? 'unknown';
    const via = (args.contextValue as { http?: { route?: unknown } } | undefined)?.http?.route ? 'rest' : 'graphql';
    metrics()?.operation(type, via);
  };
  return {
    onExecute: ({ args }) => count(args),
    onSubscribe: ({ args }) => count(args),
  };
}
