/**
 * The HTTP side of the fake: one `node:http` server per Alpaca host, a small route table, the
 * request log, fault injection, Alpaca's auth headers and its response headers (`X-Request-ID`,
 * `X-RateLimit-*`). Routes return a {@link Reply}; a thrown {@link VenueRejection} becomes the error
 * answer it carries.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiName, FaultBook } from './http-faults.js';
import { VenueRejection, type VenueError } from './venue-errors.js';

export interface RouteContext {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, `undefined` when empty, or the raw text when it is not JSON. */
  body: unknown;
}

export interface Reply {
  status: number;
  /** JSON-encoded unless undefined (then no body, e.g. 204). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Runs once the answer is written (or, under `accept-then-hang`, instead of writing it). */
  after?: () => void;
}

export interface Route {
  method: string;
  /** Matched against the whole path; capture groups are handed to `handle` (URI-decoded). */
  pattern: RegExp;
  handle: (ctx: RouteContext, params: string[]) => Reply;
}

/** One request as the fake received it. */
export interface RecordedHttpRequest {
  api: ApiName;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** Machine time (ms since epoch) it arrived. */
  at: number;
}

export interface ApiServerOptions {
  api: ApiName;
  routes: readonly Route[];
  faults: FaultBook;
  log: RecordedHttpRequest[];
  /** Error to answer when the APCA-API-* headers are wrong, or undefined when they are right. */
  authenticate: (headers: IncomingHttpHeaders) => VenueError | undefined;
  notFound: () => VenueError;
  internalError: () => VenueError;
  /** Requests allowed per minute, for the X-RateLimit-* headers (Alpaca: 200). */
  rateLimitPerMinute: number;
  /** How long every request waits before it is answered (the venue's own round trip; 0 by default). */
  latencyMs?: () => number;
}

export interface ApiServer {
  server: Server;
  url: string;
  /** Ends answers left hanging and closes every connection. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=UTF-8';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const hanging = new Set<ServerResponse>();
  let windowStart = Date.now();
  let windowCount = 0;

  const rateHeaders = (): Record<string, string> => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      windowCount = 0;
    }
    windowCount += 1;
    return {
      'X-RateLimit-Limit': String(options.rateLimitPerMinute),
      'X-RateLimit-Remaining': String(Math.max(0, options.rateLimitPerMinute - windowCount)),
      'X-RateLimit-Reset': String(Math.ceil((windowStart + 60_000) / 1000)),
    };
  };

  const send = (res: ServerResponse, reply: Reply): void => {
    const headers: Record<string, string> = { 'X-Request-ID': randomUUID().replace(/-/g, ''), ...rateHeaders(), ...reply.headers };
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end(() => reply.after?.());
      return;
    }
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(text)), ...headers });
    res.end(text, () => reply.after?.());
  };

  const hang = (res: ServerResponse): void => {
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const text = await readBody(req);
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    options.log.push({ api: options.api, method, path, query: Object.fromEntries(url.searchParams), headers: flatHeaders(req.headers), body, at: Date.now() });
    const latency = options.latencyMs?.() ?? 0;
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));

    const fault = options.faults.take(options.api, method, path);
    if (fault?.kind === 'hang') return hang(res);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') return send(res, { status: fault.status, body: fault.body, headers: fault.headers });
    if (fault?.kind === 'raw') {
      res.writeHead(fault.status, { 'Content-Type': fault.contentType, 'X-Request-ID': randomUUID().replace(/-/g, ''), ...rateHeaders() });
      res.end(fault.body);
      return;
    }

    const denied = options.authenticate(req.headers);
    if (denied) return send(res, { status: denied.status, body: denied.body });

    let reply: Reply | undefined;
    for (const route of options.routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      try {
        reply = route.handle(
          { method, path, query: url.searchParams, headers: req.headers, body },
          match.slice(1).map((p) => decodeURIComponent(p ?? '')),
        );
      } catch (error) {
        if (error instanceof VenueRejection) reply = { status: error.error.status, body: error.error.body };
        else {
          const internal = options.internalError();
          reply = { status: internal.status, body: { ...internal.body, detail: (error as Error).message } };
        }
      }
      break;
    }
    if (!reply) {
      const missing = options.notFound();
      reply = { status: missing.status, body: missing.body };
    }
    if (fault?.kind === 'accept-then-hang') {
      reply.after?.();
      return hang(res);
    }
    send(res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': JSON_TYPE });
      res.end(JSON.stringify({ message: (error as Error).message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
