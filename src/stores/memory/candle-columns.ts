import type { Candle } from '../../domain/candle.js';
import { encodeScaled, formatScaled } from '../../domain/scaled-decimal.js';

const FIELDS = 5; // open, high, low, close, volume

/**
 * One series of candles, oldest first, in typed arrays: a bucket start and five scaled integers
 * with their scales, ~53 bytes a candle instead of an object and five strings (~230 bytes, six
 * heap objects the GC marks). Reads write each amount back as the exact string it was given
 * (`src/domain/scaled-decimal.ts`). A candle with an amount that does not encode turns the series
 * into plain objects, so every input is kept as it came.
 */
export class CandleColumns {
  private starts = new Float64Array(0);
  private values = new Float64Array(0);
  private scales = new Uint8Array(0);
  private head = 0;
  private tail = 0;
  private objects: Candle[] | undefined;

  get length(): number {
    return this.objects ? this.objects.length : this.tail - this.head;
  }

  /** Bucket start of the i-th candle (0 is the oldest). */
  startAt(i: number): number {
    return this.objects ? this.objects[i]!.start : this.starts[this.head + i]!;
  }

  at(i: number): Candle {
    if (this.objects) return this.objects[i]!;
    const j = this.head + i;
    const v = this.values;
    const s = this.scales;
    const k = j * FIELDS;
    return {
      start: this.starts[j]!,
      open: formatScaled(v[k]!, s[k]!),
      high: formatScaled(v[k + 1]!, s[k + 1]!),
      low: formatScaled(v[k + 2]!, s[k + 2]!),
      close: formatScaled(v[k + 3]!, s[k + 3]!),
      volume: formatScaled(v[k + 4]!, s[k + 4]!),
    };
  }

  last(): Candle | undefined {
    return this.length === 0 ? undefined : this.at(this.length - 1);
  }

  /** Candles i in [from, to). */
  slice(from: number, to: number): Candle[] {
    if (this.objects) return this.objects.slice(from, to);
    const out: Candle[] = [];
    for (let i = from; i < to; i++) out.push(this.at(i));
    return out;
  }

  /** Index of the first candle whose start is ≥ `start`. */
  lowerBound(start: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.startAt(mid) < start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  push(c: Candle): void {
    if (this.objects) {
      this.objects.push(c);
      return;
    }
    if (this.tail === this.starts.length) this.grow(1);
    if (!this.write(this.tail, c)) {
      this.toObjects().push(c);
      return;
    }
    this.tail++;
  }

  replaceLast(c: Candle): void {
    if (this.objects) {
      this.objects[this.objects.length - 1] = c;
      return;
    }
    if (!this.write(this.tail - 1, c)) this.toObjects()[this.length - 1] = c;
  }

  /**
   * Writes `candles` (sorted by start) over the series: one with a stored start replaces it, a
   * later one is appended; one falling between stored ones rebuilds the series in order (rare:
   * a venue's backfill meeting its stream).
   */
  upsert(candles: readonly Candle[]): void {
    let rebuild = false;
    for (const c of candles) {
      const last = this.last();
      if (!last || c.start > last.start) this.push(c);
      else if (c.start === last.start) this.replaceLast(c);
      else rebuild = true;
    }
    if (!rebuild) return;
    const byStart = new Map(this.slice(0, this.length).map((c) => [c.start, c]));
    for (const c of candles) byStart.set(c.start, c);
    this.replaceAll([...byStart.values()].sort((a, b) => a.start - b.start));
  }

  /** Replaces every candle, allocating exactly what they need. */
  replaceAll(candles: readonly Candle[]): void {
    this.objects = undefined;
    this.allocate(candles.length);
    for (const c of candles) this.push(c);
  }

  /** Drops the `count` oldest candles. */
  dropOldest(count: number): void {
    if (count <= 0) return;
    if (this.objects) this.objects.splice(0, count);
    else this.head = Math.min(this.tail, this.head + count);
  }

  /** Writes candle j, or nothing (false) when an amount does not encode. */
  private write(j: number, c: Candle): boolean {
    const open = encodeScaled(c.open);
    const high = encodeScaled(c.high);
    const low = encodeScaled(c.low);
    const close = encodeScaled(c.close);
    const volume = encodeScaled(c.volume);
    if (!open || !high || !low || !close || !volume) return false;
    const k = j * FIELDS;
    [this.values[k], this.scales[k]] = open;
    [this.values[k + 1], this.scales[k + 1]] = high;
    [this.values[k + 2], this.scales[k + 2]] = low;
    [this.values[k + 3], this.scales[k + 3]] = close;
    [this.values[k + 4], this.scales[k + 4]] = volume;
    this.starts[j] = c.start;
    return true;
  }

  /** Room for `extra` more at the tail: the live candles drop out of the front, a series grows by an eighth. */
  private grow(extra: number): void {
    const live = this.tail - this.head;
    const capacity = live + Math.max(extra, 16, Math.ceil(live / 8));
    const { starts, values, scales, head, tail } = this;
    this.allocate(capacity);
    this.starts.set(starts.subarray(head, tail));
    this.values.set(values.subarray(head * FIELDS, tail * FIELDS));
    this.scales.set(scales.subarray(head * FIELDS, tail * FIELDS));
    this.tail = live;
  }

  private allocate(capacity: number): void {
    this.starts = new Float64Array(capacity);
    this.values = new Float64Array(capacity * FIELDS);
    this.scales = new Uint8Array(capacity * FIELDS);
    this.head = 0;
    this.tail = 0;
  }

  private toObjects(): Candle[] {
    const objects = this.slice(0, this.length);
    this.allocate(0);
    this.objects = objects;
    return objects;
  }
}
