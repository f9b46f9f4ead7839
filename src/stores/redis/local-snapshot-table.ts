interface Entry<V> {
  value: V;
  /** False once invalidated: kept only as the last known copy for outages. */
  valid: boolean;
  storedAt: number;
}

/**
 * A process-local copy of shared snapshots in front of Redis. An entry answers reads while it is
 * valid (not invalidated since it was read or written) and younger than `maxAgeMs`; an
 * invalidated entry stays as the last known copy for when Redis cannot be reached.
 *
 * A read that started before an invalidation must not store what it read as valid: each id has
 * a generation, bumped by every invalidation, that the reader checks before storing.
 */
export class LocalSnapshotTable<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(private readonly maxAgeMs: number) {}

  /** The local copy if it can answer without asking Redis. */
  fresh(id: string, now = Date.now()): V | undefined {
    const e = this.entries.get(id);
    return e && e.valid && now - e.storedAt <= this.maxAgeMs ? e.value : undefined;
  }

  /** The last known copy, valid or not. */
  lastKnown(id: string): V | undefined {
    return this.entries.get(id)?.value;
  }

  /** Marks a read's start; pass it to `fill` when the read returns. */
  generation(id: string): string {
    return `${this.epoch}:${this.generations.get(id) ?? 0}`;
  }

  /** Stores what a read returned; valid only when nothing was invalidated meanwhile. */
  fill(id: string, value: V | undefined, generation: string): void {
    if (value === undefined) return void this.entries.delete(id);
    this.entries.set(id, { value, valid: generation === this.generation(id), storedAt: Date.now() });
  }

  /** Stores what this process itself just wrote to Redis. */
  write(id: string, value: V): void {
    this.bump(id);
    this.entries.set(id, { value, valid: true, storedAt: Date.now() });
  }

  invalidate(id: string): void {
    this.bump(id);
    const e = this.entries.get(id);
    if (e) e.valid = false;
  }

  invalidateAll(): void {
    this.epoch += 1;
    for (const e of this.entries.values()) e.valid = false;
  }

  private bump(id: string): void {
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }
}
