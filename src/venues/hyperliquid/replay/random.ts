/**
 * Deterministic pseudo-randomness for synthesized data: the same asset, time and purpose always
 * give the same number, so the fake answers alike in every run and every process.
 */

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) fixed by its parts (mulberry32 finalizer over the parts' hash). */
export function unit(...parts: readonly (string | number)[]): number {
  let t = (hash32(parts.join('|')) + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A number in [-1, 1) fixed by its parts. */
export function signedUnit(...parts: readonly (string | number)[]): number {
  return unit(...parts) * 2 - 1;
}

/** A sequence generator (mulberry32) for building lists in a fixed order. */
export function sequence(seed: string): () => number {
  let state = hash32(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
