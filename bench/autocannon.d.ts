// autocannon ships no types and @types/autocannon is not a dependency: declare only what the bench reads.
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    /** Seconds the run took. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Latency of 2xx responses, ms (integer resolution). */
    latency: Histogram;
    // `total` counts completed requests.
    requests: Histogram & { total: number; sent: number };
    /** Bytes per second. */
    throughput: Histogram & { total: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Options, Result };
}
