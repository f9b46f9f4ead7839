export type Now = () => number;

/** Entries with an expiry that vanish when it passes, as Redis keys with a TTL do. */
export class Expiring<V> {
  private readonly map = new Map<string, { value: V; expiresAt: number }>();
  constructor(private readonly now: Now) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V, ttlMs: number): void {
    this.map.set(key, { value, expiresAt: this.now() + ttlMs });
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  entries(): [string, V][] {
    return [...this.map.keys()].flatMap((k) => {
      const v = this.get(k);
      return v === undefined ? [] : [[k, v] as [string, V]];
    });
  }
}
