/**
 * Part 4 (growth): how each figure moves with the catalogue (10 → 200 → 1,000 markets) and with
 * the subscriber count (100 → 10,000), as ratios to the smallest size measured.
 */
import type { Row } from './lib/report.js';
import { fmt } from './lib/stats.js';
import type { CatalogueSize, PublicResult } from './public-reads.js';
import type { SubscriptionResult } from './subscriptions.js';

export interface Growth {
  what: string;
  /** The sizes, smallest first, and the figure at each. */
  sizes: number[];
  values: number[];
  /** values ÷ values[0] */
  ratios: number[];
}

function series(what: string, points: [number, number][]): Growth {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  const first = sorted[0]?.[1] ?? Number.NaN;
  return { what, sizes: sorted.map((p) => p[0]), values: sorted.map((p) => p[1]), ratios: sorted.map((p) => p[1] / first) };
}

export function growth(publicResults: readonly PublicResult[], sizes: readonly CatalogueSize[], subs: readonly SubscriptionResult[]): Growth[] {
  const out: Growth[] = [];
  const measured = sizes.filter((s) => !s.skipped);
  if (measured.length > 1) {
    out.push(series('gateway idle RSS (markets)', measured.map((s) => [s.actual, s.idleRssBytes])));
    out.push(series('gateway start time (markets)', measured.map((s) => [s.actual, s.startMs])));
    const labels = [...new Set(publicResults.filter((r) => publicResults.filter((x) => x.label === r.label).length > 1).map((r) => r.label))];
    for (const label of labels) {
      const rows = publicResults.filter((r) => r.label === label);
      out.push(series(`GET ${label}: body bytes`, rows.map((r) => [r.markets, r.bodyBytes])));
      out.push(series(`GET ${label}: gateway req/s`, rows.map((r) => [r.markets, r.gateway.reqPerSec])));
      out.push(series(`GET ${label}: gateway CPU µs/req`, rows.map((r) => [r.markets, r.gateway.cpuUsPerReq])));
      out.push(series(`GET ${label}: gateway p99`, rows.map((r) => [r.markets, r.gateway.p99])));
      out.push(series(`GET ${label}: ratio to baseline`, rows.map((r) => [r.markets, r.ratio])));
    }
  }
  for (const transport of ['ws', 'sse'] as const) {
    const rows = subs.filter((r) => r.transport === transport && r.opened > 0);
    if (rows.length < 2) continue;
    const name = transport === 'ws' ? 'graphql-ws' : 'SSE';
    out.push(series(`${name}: publish→receipt p50`, rows.map((r) => [r.requested, r.latency.p50])));
    out.push(series(`${name}: publish→receipt p99`, rows.map((r) => [r.requested, r.latency.p99])));
    out.push(series(`${name}: RSS per subscriber`, rows.map((r) => [r.requested, r.bytesPerSubscriber])));
    out.push(series(`${name}: gateway CPU per message`, rows.map((r) => [r.requested, r.cpuUsPerDelivery])));
    out.push(series(`${name}: subscribers opened per second`, rows.map((r) => [r.requested, (r.opened - r.warmup) / Math.max(0.001, r.openSeconds)])));
  }
  return out;
}

export function growthRows(items: readonly Growth[], sizes: readonly CatalogueSize[]): Row[] {
  const rows: Row[] = items.map((g) => ({
    area: 'growth',
    what: `${g.what}, ${g.sizes.join(' → ')}`,
    figure: `×${g.ratios.map((r) => fmt(r, 2)).join(' → ×')} (${g.values.map((v) => fmt(v, v < 10 ? 2 : 0)).join(' → ')})`,
  }));
  const measured = sizes.filter((s) => !s.skipped);
  if (sizes.length > 1 && measured.length < 2) {
    rows.push({ area: 'growth', what: `markets ${sizes.map((s) => s.requested).join(' → ')}`, figure: `not measurable: the gateway served ${[...new Set(sizes.map((s) => s.actual))].join(', ')} markets` });
  }
  return rows;
}
