/**
 * The servers under test, in a process of their own so the load generator does not steal their
 * CPU: the real gateway, and a baseline that answers the same two routes from the same snapshot
 * cache with plain node:http. Prints `{"gateway", "baseline", "stats"}` URLs on one stdout line.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_SCHEMA_VERSION } from '../resolvers/public/envelope.js';
import { buildApp, type GatewayApp } from '../src/app.js';
import { testConfig } from '../src/config/gateway-config.js';
import { ROUTES, type RouteSpec } from '../src/contract/route-registry.js';
import { combineFreshness, missingFreshness, type Freshness } from '../src/domain/freshness.js';
import { cacheControlFor } from '../src/http/cache-headers.js';
import type { MarketView } from '../src/market-data/market-view.js';

const STATS_PATH = '/__bench/stats';

const MARKET_PATH = /^\/api\/v1\/public\/markets\/([^/]+)$/;

/**
 * The minimum work for the gateway's answer: the same reader calls, freshness at request time,
 * the same envelope and headers, one JSON.stringify. No GraphQL, no Sofa, no fetch API objects.
 */
function baselineHandler(app: GatewayApp) {
  const { reader, clock } = app.services;
  const routeOf = (field: string): RouteSpec => {
    const route = ROUTES.find((r) => r.field === field);
    if (!route) throw new Error(`no contract route for ${field}`);
    return route;
  };
  const listRoute = routeOf('Query.markets');
  const oneRoute = routeOf('Query.market');

  const send = (res: ServerResponse, route: RouteSpec, status: number, data: unknown, freshness: Freshness, now: number) => {
    const body = JSON.stringify({ schemaVersion: PUBLIC_SCHEMA_VERSION, generatedAt: new Date(now).toISOString(), freshness, data });
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': cacheControlFor(route, { requestId: '', freshness }),
      'x-request-id': randomUUID(),
    });
    res.end(body);
  };

  return async (url: string, res: ServerResponse): Promise<void> => {
    const now = clock.now();
    if (url === listRoute.path) {
      const { views, missing } = await reader.views(reader.directory.markets, now);
      const parts = views.map((v) => v.freshness);
      if (missing.length > 0) parts.push(missingFreshness('no_snapshot', 'unknown', now));
      const freshness = combineFreshness(parts, missingFreshness('no_snapshot', 'unknown', now));
      return send(res, listRoute, 200, views.map(wire), freshness, now);
    }
    const asset = MARKET_PATH.exec(url)?.[1];
    const market = asset === undefined ? undefined : reader.directory.resolve(decodeURIComponent(asset));
    if (!market) return send(res, oneRoute, 404, null, missingFreshness('not_found', 'unknown', now), now);
    const view = await reader.view(market, now);
    if (!view) return send(res, oneRoute, 200, null, missingFreshness('no_snapshot', await reader.sourceStatus(market.sourceId), now), now);
    return send(res, oneRoute, 200, wire(view), view.freshness, now);
  };
}

/** A view as the GraphQL type exposes it: `asOfMs` is internal. */
function wire(view: MarketView): Omit<MarketView, 'asOfMs'> {
  const { asOfMs: _internal, ...rest } = view;
  return rest;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

// Ingest runs as in production, so snapshots and freshness change while we measure. Rate limits
// stay in the request path (their cost is part of the stack) but are raised far above what one
// load generator can send, or every measured request would be a 429. GATEWAY_PUBLIC_FAST_PATH=false
// measures the Yoga + Sofa path the public fast path replaces.
const publicFastPath = process.env.GATEWAY_PUBLIC_FAST_PATH !== 'false';
const app = buildApp(testConfig({ logLevel: 'silent', rateLimits: { publicPerMinute: 1e9, keyPerMinute: 1e9 }, publicFastPath }));
await app.start();
const gateway = app.createServer();

const handle = baselineHandler(app);
const baseline = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === STATS_PATH) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ memory: process.memoryUsage(), cpu: process.cpuUsage() }));
  }
  handle(url, res).catch((error: unknown) => {
    res.writeHead(500).end(String(error));
  });
});

const baselineUrl = await listen(baseline);
const urls = { gateway: await listen(gateway), baseline: baselineUrl, stats: baselineUrl + STATS_PATH };
process.stdout.write(`${JSON.stringify(urls)}\n`);

let stopping = false;
// Exit through process.exit so `--cpu-prof` writes its profile.
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await app.stop();
  for (const server of [gateway, baseline]) {
    server.closeAllConnections();
    server.close();
  }
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
// A parent that dies without signalling must not leave the servers running.
process.on('disconnect', () => void shutdown());
