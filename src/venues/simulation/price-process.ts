import type { MarketDefinition } from '../../domain/market.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const seeds = new Map<string, number>();

/** 32-bit FNV-1a: a stable seed per market id (remembered: history backfill asks millions of times). */
export function seedOf(text: string): number {
  let seed = seeds.get(text);
  if (seed === undefined) seeds.set(text, (seed = fnv1a(text)));
  return seed;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic noise in [0, 1) for an integer step and a seed. */
export function noise(seed: number, step: number): number {
  let x = (seed ^ Math.imul(step | 0, 0x9e3779b1) ^ Math.imul(Math.floor(step / 4294967296), 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

/** Smooth noise in [-1, 1): linear interpolation of step noise over `periodMs`. */
function smoothNoise(seed: number, t: number, periodMs: number): number {
  const k = Math.floor(t / periodMs);
  const f = (t - k * periodMs) / periodMs;
  return (noise(seed, k) * (1 - f) + noise(seed, k + 1) * f) * 2 - 1;
}

/**
 * The simulated price of a market at time `t`: a pure function of the market and the time,
 * so a backfilled history and the live feed agree and every run is reproducible.
 */
export function priceAt(market: MarketDefinition, t: number): number {
  const seed = seedOf(market.id);
  const phase = (seed % 1000) / 1000;
  const v = market.volatility;
  const x =
    0.5 * Math.sin((2 * Math.PI * t) / (29 * DAY) + phase * 6.28) +
    0.25 * Math.sin((2 * Math.PI * t) / (5 * DAY) + phase * 3.1) +
    0.2 * smoothNoise(seed, t, 6 * HOUR) +
    0.08 * smoothNoise(seed + 1, t, 10 * MINUTE) +
    0.02 * smoothNoise(seed + 2, t, 5_000);
  return market.basePrice * Math.exp(v * x);
}

/** Traded notional in quote units over [t, t + spanMs), deterministic per minute. */
export function volumeBetween(market: MarketDefinition, t: number, spanMs: number): number {
  const seed = seedOf(market.id) + 7;
  return market.volumePerMinute * (0.4 + 1.2 * noise(seed, Math.floor(t / MINUTE))) * (spanMs / MINUTE);
}

export const TIME = { MINUTE, HOUR, DAY } as const;
