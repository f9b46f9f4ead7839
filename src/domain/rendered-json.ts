const rendered = new WeakMap<object, string>();

/**
 * Makes `value` a deep-frozen copy whose JSON text is rendered once, here, and reused by
 * `renderJson` for as long as the copy lives: the copy cannot change (freezing makes that so), so
 * its text is what `JSON.stringify` would give on every request. A new version is a new copy.
 */
export function immutableJson<T extends object>(value: T): T {
  const copy = deepFreeze(structuredClone(value));
  rendered.set(copy, JSON.stringify(copy));
  return copy;
}

/** `JSON.stringify(value)`, but the text rendered once for a value made by `immutableJson`. */
export function renderJson(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    const text = rendered.get(value);
    if (text !== undefined) return text;
  }
  // JSON.stringify(undefined) is undefined: Sofa's Response.json would send an empty body alike.
  return JSON.stringify(value) ?? '';
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
