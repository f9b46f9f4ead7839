/**
 * The peer: what a user would build instead of the gateway to serve the same public reads, a
 * fastify 5 server answering from memory with the bytes the gateway answered (same status, body,
 * Content-Type, Content-Encoding, Cache-Control, security headers…), with what such a server would
 * have in production:
 *
 * - fastify's request logging (`logger` at info: pino, an `incoming request` and a `request
 *   completed` line per request, its request id honouring `x-request-id`, echoed in the answer),
 *   to stdout through pino's asynchronous destination, as the gateway writes its log;
 * - `@fastify/rate-limit` per client address, far above the load (as the gateway's limiter in the
 *   bench: it counts, never limits), with its `x-ratelimit-*` headers instead of the gateway's;
 * - an ETag per answer, computed once per body (SHA-256), and 304 on a matching If-None-Match.
 *
 * One route per route template of the gateway (`/api/v1/public/markets/:asset`…), matched by
 * fastify's router; the answer is looked up by URL and Accept-Encoding.
 *
 *   node --import tsx bench/peer-server.ts <peer.json>   # prints {"port": n} on stderr; stdout is the log
 *
 * The file is written by bench/peer.ts: {routes: [template...], entries: BaselineEntry[]}.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { pino } from 'pino';
// Only this module of the bench: the others install the bench's own signal handlers.
import { baselineKey, type PeerInput } from './lib/baseline-format.js';

/** Headers the peer makes itself (framing, its request id, its rate-limit headers, its ETag); every other header of the gateway's answer is copied. */
const OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-request-id', 'etag', 'ratelimit', 'ratelimit-policy']);

const file = process.argv[2];
if (!file) throw new Error('usage: peer-server.ts <peer.json>');
const input = JSON.parse(readFileSync(file, 'utf8')) as PeerInput;

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  etag: string;
}
const answers = new Map<string, Answer>();
for (const e of input.entries) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of e.headers) {
    if (OWN.has(k)) continue;
    const had = headers[k];
    headers[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  const body = Buffer.from(e.body, 'base64');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  answers.set(baselineKey(e.url, e.acceptEncoding), { status: e.status, headers, body, etag });
}

const app = Fastify({
  loggerInstance: pino({ level: 'info' }, pino.destination({ dest: 1, sync: false })),
  requestIdHeader: 'x-request-id',
});
await app.register(rateLimit, { max: 1_000_000_000, timeWindow: '1 minute' });
for (const route of input.routes) {
  app.get(route, (request, reply) => {
    const answer = answers.get(baselineKey(request.url, request.headers['accept-encoding']));
    if (!answer) return reply.code(404).send({ message: 'not a measured request' });
    reply.header('x-request-id', request.id).header('etag', answer.etag).headers(answer.headers);
    if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
    return reply.code(answer.status).send(answer.body);
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stderr.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
process.on('SIGTERM', () => {
  app.server.closeAllConnections();
  void app.close().then(() => process.exit(0));
});
