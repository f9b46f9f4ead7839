/**
 * When the store writes of a piece of work become durable. SQLite (embedded mode) commits the
 * writes of concurrent work together, one fsync per commit: `together` lets one request's writes
 * share a commit and resolves only once every write it made (and everything it read) is
 * committed, so what a client is told survives a power loss. Stores that acknowledge each write
 * durably on their own (Redis, memory) just run the work.
 */
export interface WriteDurability {
  together<T>(work: () => Promise<T>): Promise<T>;
}

/** Each store call is durable when it resolves (Redis, memory). */
export const EACH_WRITE_DURABLE: WriteDurability = { together: (work) => work() };
