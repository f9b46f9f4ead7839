/** Counts by name (sockets per client address, subscriptions per key), forgetting a name at zero so memory returns. */
export class Counter {
  private readonly counts = new Map<string, number>();

  get(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  add(name: string, delta: number): void {
    const next = this.get(name) + delta;
    if (next > 0) this.counts.set(name, next);
    else this.counts.delete(name);
  }

  /** Names currently counted (tests check that closing everything empties it). */
  get size(): number {
    return this.counts.size;
  }
}

/**
 * Open operations of one graphql-ws socket and the key each counts against, so a completed
 * operation and a closed socket give back exactly what they took.
 */
export class SocketOperations {
  private readonly byId = new Map<string, string | undefined>();

  constructor(private readonly perKey: Counter) {}

  start(id: string, key: string | undefined): void {
    this.byId.set(id, key);
    if (key) this.perKey.add(key, 1);
  }

  end(id: string): void {
    if (!this.byId.has(id)) return;
    const key = this.byId.get(id);
    this.byId.delete(id);
    if (key) this.perKey.add(key, -1);
  }

  endAll(): void {
    for (const id of [...this.byId.keys()]) this.end(id);
  }
}
