/**
 * The fake's market-data stream (`wss://stream.data.alpaca.markets/v2/{feed}`), Alpaca's protocol:
 *
 * - on connect `[{"T":"success","msg":"connected"}]`;
 * - `{"action":"auth","key":…,"secret":…}` → `[{"T":"success","msg":"authenticated"}]`, or
 *   `[{"T":"error","code":402,"msg":"auth failed"}]`; no auth within `authTimeoutMs` →
 *   `[{"T":"error","code":404,"msg":"auth timeout"}]` and close; more authenticated connections
 *   than the plan allows (free: 1) → `[{"T":"error","code":406,"msg":"connection limit exceeded"}]`
 *   and close; a second auth → 403 "already authenticated";
 * - `{"action":"subscribe"|"unsubscribe","trades":[…],"quotes":[…],"bars":[…],…}` → the whole
 *   subscription state `[{"T":"subscription","trades":[…],…}]` (before auth: 401 "not authenticated");
 * - data: arrays of `{"T":"t"|"q"|"b"|"u"|"d","S":symbol,…}` in the REST wire keys.
 *
 * A client that upgrades with `Content-Type: application/msgpack` (the SDK does) gets binary
 * msgpack frames with timestamps as msgpack timestamp extensions (nanoseconds kept), as Alpaca
 * sends them; any other client gets JSON text frames with RFC 3339 strings.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { EXT_TIMESTAMP, ExtensionCodec, decode, encode, encodeTimeSpecToTimestamp } from '@msgpack/msgpack';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { WireBar, WireQuote, WireTrade } from './market-data-store.js';

const CHANNELS = ['trades', 'quotes', 'bars', 'updatedBars', 'dailyBars', 'statuses', 'lulds', 'corrections', 'cancelErrors'] as const;
type Channel = (typeof CHANNELS)[number];
/** Channels a client asks for; corrections and cancel errors follow the trades subscription. */
const ASKABLE = new Set<string>(['trades', 'quotes', 'bars', 'updatedBars', 'dailyBars', 'statuses', 'lulds']);

interface Client {
  socket: WebSocket;
  msgpack: boolean;
  authenticated: boolean;
  subs: Record<Channel, Set<string>>;
  authTimer: ReturnType<typeof setTimeout> | undefined;
}

export interface DataStreamOptions {
  verify: (keyId: string, secret: string) => boolean;
  /** Authenticated connections allowed at once (Alpaca's free plan: 1). */
  connectionLimit: () => number;
  authTimeoutMs: number;
  /** Feeds served at `/v2/{feed}`. */
  feeds: readonly string[];
  received: unknown[];
}

/** A timestamp with nanoseconds, encoded as the msgpack timestamp extension. */
class NanoTime {
  constructor(
    readonly sec: number,
    readonly nsec: number,
  ) {}
}

function nanoTime(rfc3339: string): NanoTime {
  const match = /^(.*?)(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339);
  const whole = Date.parse(match ? `${match[1]}${match[3]}` : rfc3339);
  const fraction = (match?.[2] ?? '').padEnd(9, '0').slice(0, 9);
  return new NanoTime(Math.floor(whole / 1000), Number(fraction || '0'));
}

const codec = new ExtensionCodec();
codec.register({
  type: EXT_TIMESTAMP,
  encode: (input: unknown) => (input instanceof NanoTime ? encodeTimeSpecToTimestamp({ sec: input.sec, nsec: input.nsec }) : null),
  decode: (data: Uint8Array) => data,
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function emptySubs(): Record<Channel, Set<string>> {
  return Object.fromEntries(CHANNELS.map((c) => [c, new Set<string>()])) as Record<Channel, Set<string>>;
}

export class DataStreamServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();

  constructor(private readonly options: DataStreamOptions) {
    this.wss.on('connection', (socket: WebSocket, req: IncomingMessage) => this.accept(socket, req));
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const feed = /^\/v2\/([a-z_]+)$/.exec(path)?.[1];
      if (!feed || !this.options.feeds.includes(feed)) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
    });
  }

  publishTrade(symbol: string, trade: WireTrade): void {
    this.publish('trades', symbol, { T: 't', S: symbol, ...trade });
  }

  publishQuote(symbol: string, quote: WireQuote): void {
    this.publish('quotes', symbol, { T: 'q', S: symbol, ...quote });
  }

  /** `kind`: `b` minute bar, `u` updated bar, `d` daily bar. */
  publishBar(symbol: string, bar: WireBar, kind: 'b' | 'u' | 'd' = 'b'): void {
    const channel: Channel = kind === 'b' ? 'bars' : kind === 'u' ? 'updatedBars' : 'dailyBars';
    this.publish(channel, symbol, { T: kind, S: symbol, ...bar });
  }

  dropAll(): void {
    for (const client of this.clients) client.socket.terminate();
  }

  get connections(): number {
    return this.clients.size;
  }

  /** Symbols subscribed per channel, over every authenticated client. */
  subscriptions(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const channel of CHANNELS) {
      const all = new Set<string>();
      for (const client of this.clients) for (const s of client.subs[channel]) all.add(s);
      out[channel] = [...all].sort();
    }
    return out;
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(socket: WebSocket, req: IncomingMessage): void {
    const client: Client = {
      socket,
      msgpack: /application\/msgpack/i.test(req.headers['content-type'] ?? ''),
      authenticated: false,
      subs: emptySubs(),
      authTimer: undefined,
    };
    this.clients.add(client);
    const forget = (): void => {
      clearTimeout(client.authTimer);
      this.clients.delete(client);
    };
    socket.on('close', forget);
    socket.on('error', forget);
    socket.on('message', (data: RawData, isBinary: boolean) => this.receive(client, data, isBinary));
    client.authTimer = setTimeout(() => {
      if (client.authenticated) return;
      this.send(client, [{ T: 'error', code: 404, msg: 'auth timeout' }]);
      socket.close();
    }, this.options.authTimeoutMs);
    this.send(client, [{ T: 'success', msg: 'connected' }]);
  }

  private receive(client: Client, data: RawData, isBinary: boolean): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    let message: unknown;
    try {
      message = isBinary && client.msgpack ? decode(bytes) : JSON.parse(bytes.toString('utf8'));
    } catch {
      this.send(client, [{ T: 'error', code: 400, msg: 'invalid syntax' }]);
      return;
    }
    this.options.received.push(message);
    if (!isObject(message)) {
      this.send(client, [{ T: 'error', code: 400, msg: 'invalid syntax' }]);
      return;
    }
    switch (message.action) {
      case 'auth':
        return this.auth(client, String(message.key ?? ''), String(message.secret ?? ''));
      case 'subscribe':
      case 'unsubscribe': {
        if (!client.authenticated) {
          this.send(client, [{ T: 'error', code: 401, msg: 'not authenticated' }]);
          return;
        }
        for (const [key, value] of Object.entries(message)) {
          if (!ASKABLE.has(key) || !Array.isArray(value)) continue;
          const set = client.subs[key as Channel];
          for (const symbol of value.map(String)) {
            if (message.action === 'subscribe') set.add(symbol);
            else set.delete(symbol);
          }
        }
        client.subs.corrections = new Set(client.subs.trades);
        client.subs.cancelErrors = new Set(client.subs.trades);
        this.send(client, [{ T: 'subscription', ...Object.fromEntries(CHANNELS.map((c) => [c, [...client.subs[c]]])) }]);
        return;
      }
      default:
        this.send(client, [{ T: 'error', code: 400, msg: 'invalid syntax' }]);
    }
  }

  private auth(client: Client, keyId: string, secret: string): void {
    if (client.authenticated) {
      this.send(client, [{ T: 'error', code: 403, msg: 'already authenticated' }]);
      return;
    }
    if (!this.options.verify(keyId, secret)) {
      this.send(client, [{ T: 'error', code: 402, msg: 'auth failed' }]);
      return;
    }
    const authenticated = [...this.clients].filter((c) => c.authenticated).length;
    if (authenticated >= this.options.connectionLimit()) {
      this.send(client, [{ T: 'error', code: 406, msg: 'connection limit exceeded' }]);
      client.socket.close();
      return;
    }
    client.authenticated = true;
    clearTimeout(client.authTimer);
    this.send(client, [{ T: 'success', msg: 'authenticated' }]);
  }

  private publish(channel: Channel, symbol: string, frame: Record<string, unknown>): void {
    for (const client of this.clients) {
      if (!client.authenticated) continue;
      const subs = client.subs[channel];
      if (subs.has(symbol) || subs.has('*')) this.send(client, [frame]);
    }
  }

  private send(client: Client, frames: Array<Record<string, unknown>>): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    if (!client.msgpack) {
      client.socket.send(JSON.stringify(frames));
      return;
    }
    const withTimes = frames.map((f) => (typeof f.t === 'string' ? { ...f, t: nanoTime(f.t) } : f));
    client.socket.send(encode(withTimes, { extensionCodec: codec }), { binary: true });
  }
}
