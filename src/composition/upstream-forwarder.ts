import type { UpstreamObserver } from '../sources/upstream-observer.js';

/** The venues are built before the metrics exist: their upstream reports go to the metrics once there are some. */
export class UpstreamForwarder implements UpstreamObserver {
  target: UpstreamObserver | undefined;

  request(venue: string, type: string, outcome: string): void {
    this.target?.request(venue, type, outcome);
  }

  reconnect(venue: string): void {
    this.target?.reconnect(venue);
  }

  ingested(venue: string, lagMs: number): void {
    this.target?.ingested(venue, lagMs);
  }
}
