import type { PerpAsset } from './catalogue.js';
import { decimalString, priceDecimals, priceString, priceTick, roundPrice, sizeString } from './numbers.js';
import { unit } from './random.js';
import type { BookLevel } from './wire.js';

/** Levels a side in an l2Book answer or push. */
export const BOOK_DEPTH = 20;
/** Levels a side the fake keeps, so that aggregated books (nSigFigs) still fill 20 levels. */
const RAW_DEPTH = 200;

/**
 * A synthesized book around `mid`: best bid and ask one to three ticks apart, steps of one tick
 * near the top growing further out, sizes worth a few hundred to a few tens of thousands USD,
 * 1–4 orders a level. `version` changes the sizes, so each push can differ.
 */
export function synthBook(asset: PerpAsset, mid: number, version: number): [BookLevel[], BookLevel[]] {
  const sz = asset.szDecimals;
  const tick = priceTick(mid, sz);
  const spreadTicks = 1 + Math.floor(unit(asset.name, 'spread', version) * 3);
  const bestBid = roundPrice(Math.floor(mid / tick - spreadTicks / 2) * tick, sz);
  const bestAsk = roundPrice(bestBid + spreadTicks * tick, sz);
  const side = (start: number, direction: 1 | -1, label: string): BookLevel[] => {
    const levels: BookLevel[] = [];
    let px = start;
    for (let i = 0; i < RAW_DEPTH && px > 0; i++) {
      const notional = 300 * 10 ** (2 * unit(asset.name, label, 'sz', i, version));
      levels.push({
        n: 1 + Math.floor(unit(asset.name, label, 'n', i, version) * 4),
        px: priceString(px, sz),
        sz: sizeString(Math.max(notional / px, 10 ** -sz), sz),
      });
      const step = Math.max(1, Math.round(1 + i * 0.15 + unit(asset.name, label, 'gap', i, version) * 2));
      const nextTick = priceTick(px, sz);
      px = roundPrice(px + direction * step * nextTick, sz);
    }
    return levels;
  };
  return [side(bestBid, -1, 'bid'), side(bestAsk, 1, 'ask')];
}

/** The bucket width for `nSigFigs` (and `mantissa`, with 5 figures) at this price. */
function bucketWidth(px: number, nSigFigs: number, mantissa: number | undefined): number {
  const magnitude = Math.floor(Math.log10(px));
  return 10 ** (magnitude - nSigFigs + 1) * (mantissa ?? 1);
}

/**
 * The book as the venue aggregates it for `nSigFigs` (2–5; `mantissa` 2 or 5 only with 5): bids
 * rounded down and asks up to the bucket, sizes and order counts summed, 20 levels a side. Without
 * nSigFigs the full-precision top 20.
 */
export function aggregateBook(
  levels: readonly [readonly BookLevel[], readonly BookLevel[]],
  szDecimals: number,
  nSigFigs: number | null | undefined,
  mantissa: number | null | undefined,
): [BookLevel[], BookLevel[]] {
  const [bids, asks] = levels;
  if (nSigFigs == null) return [bids.slice(0, BOOK_DEPTH), asks.slice(0, BOOK_DEPTH)];
  const side = (raw: readonly BookLevel[], down: boolean): BookLevel[] => {
    const buckets = new Map<number, { sz: number; n: number }>();
    const order: number[] = [];
    for (const level of raw) {
      const px = Number(level.px);
      const width = bucketWidth(px, nSigFigs, mantissa ?? undefined);
      const steps = px / width;
      const bucket = (down ? Math.floor(steps + 1e-9) : Math.ceil(steps - 1e-9)) * width;
      const key = Number(bucket.toPrecision(12));
      let entry = buckets.get(key);
      if (!entry) {
        if (order.length === BOOK_DEPTH) break;
        entry = { sz: 0, n: 0 };
        buckets.set(key, entry);
        order.push(key);
      }
      entry.sz += Number(level.sz);
      entry.n += level.n;
    }
    return order.map((px) => {
      const entry = buckets.get(px) ?? { sz: 0, n: 0 };
      return { n: entry.n, px: decimalString(px, Math.max(0, priceDecimals(px, szDecimals))), sz: sizeString(entry.sz, szDecimals) };
    });
  };
  return [side(bids, true), side(asks, false)];
}
