/** A small node:http client: raw bytes as sent (no decoding), and timed JSON calls on kept-alive sockets. */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came off the wire (still compressed when Content-Encoding says so). */
  body: Buffer;
}

export function rawGet(url: string, headers: Record<string, string> = {}, agent?: Agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent: agent ?? false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: GET ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

export interface JsonResponse {
  status: number;
  headers: IncomingHttpHeaders;
  // Bodies are the gateway's JSON; callers check what they read.
  body: any;
  /** Round trip in ms: request written to body fully read. */
  ms: number;
}

/** JSON calls to one base URL over kept-alive sockets, each timed. */
export class JsonClient {
  readonly agent: Agent;

  constructor(
    readonly base: string,
    maxSockets = 64,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  call(method: string, path: string, token?: string, body?: unknown): Promise<JsonResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    if (token) headers.authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(this.base + path, { method, headers, agent: this.agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep the text for the error message
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, ms });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The call, or an error naming the route, status and body when the status is not the expected one. */
  async expect(status: number, method: string, path: string, token?: string, body?: unknown): Promise<JsonResponse> {
    const res = await this.call(method, path, token, body);
    if (res.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res;
  }

  close(): void {
    this.agent.destroy();
  }
}
