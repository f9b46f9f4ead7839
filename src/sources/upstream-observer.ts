/** What a real venue's adapter tells the metrics of its upstream (gateway_upstream_*). */
export interface UpstreamObserver {
  /** One request to the venue: its type (e.g. l2Book) and outcome (`200`, `429`, `5xx`, `timeout`, `error`). */
  request(venue: string, type: string, outcome: string): void;
  /** The venue's stream reconnected. */
  reconnect(venue: string): void;
  /** Ingest wrote the venue's data `lagMs` after the venue's own time of its newest figure (ingest lag). */
  ingested(venue: string, lagMs: number): void;
}

/** An observer that tells nobody (a source built without metrics, in tests). */
export const UNOBSERVED: UpstreamObserver = { request: () => undefined, reconnect: () => undefined, ingested: () => undefined };
