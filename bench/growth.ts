/**
 * Part 4 (growth): how each figure moves with the catalogue (10 → 200 → 1,000 markets) and with
 * the subscriber count (100 → 10,000), as ratios to the smallest size measured.
 */
import type { Row } from './lib/report.js';
import { fmt } from './lib/stats.js';
import type { CatalogueSize, PublicResult } from './public-reads.js';
import type { SubscriptionResult } from './subscriptions.js';

export interface Growth {
  /** What grows (a route, a transport) and along which axis. */
  subject: string;
  axis: 'markets' | 'subscribers';
  /** Smallest first. */
  sizes: number[];
  /** Per figure: its value at each size, and the value ÷ the value at the smallest size. */
  figures: { name: string; values: number[]; ratios: number[] }[];
}

function growthOf<T>(subject: string, axis: Growth['axis'], items: T[], sizeOf: (t: T) => number, figures: Record<string, (t: T) => number>): Growth {
  const sorted = [...items].sort((a, b) => sizeOf(a) - sizeOf(b));
  return {
    subject,
    axis,
    sizes: sorted.map(sizeOf),
    figures: Object.entries(figures).map(([name, f]) => {
      const values = sorted.map(f);
      return { name, values, ratios: values.map((v) => v / values[0]!) };
    }),
  };
}

export function growth(publicResults: readonly PublicResult[], sizes: readonly CatalogueSize[], subs: readonly SubscriptionResult[]): Growth[] {
  const out: Growth[] = [];
  const measured = sizes.filter((s) => !s.skipped);
  if (measured.length > 1) {
    out.push(growthOf('gateway process', 'markets', measured, (s) => s.actual, { 'idle RSS': (s) => s.idleRssBytes, 'start time': (s) => s.startMs }));
    for (const label of new Set(publicResults.map((r) => r.label))) {
      const rows = publicResults.filter((r) => r.label === label);
      if (rows.length < 2) continue;
      out.push(
        growthOf(`GET ${label}`, 'markets', rows, (r) => r.markets, {
          'body bytes': (r) => r.bodyBytes,
          'req/s': (r) => r.gateway.reqPerSec,
          'CPU µs/req': (r) => r.gateway.cpuUsPerReq,
          p99: (r) => r.gateway.p99,
          'ratio to baseline': (r) => r.ratio,
        }),
      );
    }
  }
  for (const transport of ['ws', 'sse'] as const) {
    const rows = subs.filter((r) => r.transport === transport && r.mode === 'embedded' && r.opened > 0);
    if (rows.length < 2) continue;
    out.push(
      growthOf(transport === 'ws' ? 'graphql-ws subscribers' : 'SSE subscribers', 'subscribers', rows, (r) => r.requested, {
        'publish→receipt p50': (r) => r.latency.p50,
        'publish→receipt p99': (r) => r.latency.p99,
        'RSS per subscriber': (r) => r.bytesPerSubscriber,
        'gateway CPU per message': (r) => r.cpuUsPerDelivery,
        'opened per second': (r) => (r.opened - r.warmup) / Math.max(0.001, r.openSeconds),
        'share of the worst event delivered': (r) => r.minFraction,
      }),
    );
  }
  return out;
}

export function growthRows(items: readonly Growth[], sizes: readonly CatalogueSize[]): Row[] {
  const rows: Row[] = items.map((g) => ({
    area: 'growth',
    what: `${g.subject}, ${g.axis} ${g.sizes.join(' → ')}`,
    figure: g.figures.map((f) => `${f.name} ×${f.ratios.map((r) => fmt(r, 2)).join(' → ×')}`).join('; '),
  }));
  const measured = sizes.filter((s) => !s.skipped);
  if (sizes.length > 1 && measured.length < 2) {
    rows.push({
      area: 'growth',
      what: `markets ${sizes.map((s) => s.requested).join(' → ')}`,
      figure: `not measurable: the gateway served ${[...new Set(sizes.map((s) => s.actual))].join(', ')} markets`,
    });
  }
  return rows;
}
