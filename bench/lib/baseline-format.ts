/** What bench/baseline-server.ts serves: the gateway's answers, keyed by URL and Accept-Encoding. */
export interface BaselineEntry {
  url: string;
  /** The request's Accept-Encoding ('' when none was sent): the same URL may be answered in several encodings. */
  acceptEncoding: string;
  status: number;
  headers: [string, string][];
  /** base64 */
  body: string;
}

export const baselineKey = (url: string, acceptEncoding: string | undefined) => `${url}\u0000${acceptEncoding ?? ''}`;

/** What bench/peer-server.ts serves: the same answers, under the gateway's route templates in fastify's syntax (`/api/v1/public/markets/:asset`). */
export interface PeerInput {
  routes: string[];
  entries: BaselineEntry[];
}
