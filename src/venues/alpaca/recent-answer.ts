/**
 * A venue's answer kept for a short while: callers within `ttlMs` of it share it, and callers
 * while it is asked share the one request. A failure is not kept (the next caller asks again).
 */
export class RecentAnswer<T> {
  private kept: { value: T; at: number } | undefined;
  private pending: Promise<T> | undefined;

  constructor(
    private readonly ask: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    if (this.kept && this.now() - this.kept.at < this.ttlMs) return Promise.resolve(this.kept.value);
    this.pending ??= this.ask()
      .then((value) => {
        this.kept = { value, at: this.now() };
        return value;
      })
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** The next caller asks again (the venue's state moved: an order was placed or cancelled). */
  forget(): void {
    this.kept = undefined;
  }
}
