/**
 * The fake's trading stream (`wss://paper-api.alpaca.markets/stream`), JSON over WebSocket:
 *
 * - auth: `{"action":"authenticate","data":{"key_id":…,"secret_key":…}}` (what the SDK sends) or
 *   the newer `{"action":"auth","key":…,"secret":…}`; answer
 *   `{"stream":"authorization","data":{"action":"authenticate","status":"authorized"|"unauthorized"}}`;
 * - `{"action":"listen","data":{"streams":["trade_updates"]}}` answers
 *   `{"stream":"listening","data":{"streams":[…known streams asked…]}}`;
 * - events: `{"stream":"trade_updates","data":{"event":…,"timestamp":…,"order":{…},…}}`.
 *
 * Alpaca's docs say this stream sends binary frames (unlike the market-data stream's text frames);
 * the fake does the same by default. A frame it cannot read gets `{"action":"error","data":
 * {"error_message":…}}`, the error shape the SDK's `TradingStream` handles (not seen in a recording).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { WireTradeUpdate } from './trading-shapes.js';

interface Client {
  socket: WebSocket;
  authenticated: boolean;
  streams: Set<string>;
}

export interface TradingStreamOptions {
  verify: (keyId: string, secret: string) => boolean;
  frames: 'binary' | 'text';
  /** Every frame a client sent, decoded (for tests that check what the SDK sends). */
  received: unknown[];
}

const KNOWN_STREAMS = new Set(['trade_updates']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class TradingStreamServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();
  private dropOnNextEvent = false;

  constructor(private readonly options: TradingStreamOptions) {
    this.wss.on('connection', (socket) => this.accept(socket));
  }

  /** Serves upgrades of `path` on `server`; other paths are refused with 404. */
  attach(server: Server, path = '/stream'): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== path) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
    });
  }

  /** Sends a trade update to every authenticated client listening to `trade_updates`. */
  publish(update: WireTradeUpdate): void {
    if (this.dropOnNextEvent) {
      this.dropOnNextEvent = false;
      this.dropAll();
      return;
    }
    for (const client of this.clients) {
      if (client.authenticated && client.streams.has('trade_updates')) this.send(client, { stream: 'trade_updates', data: update });
    }
  }

  /** Cuts every connection without a close frame (the client sees an abnormal close, 1006). */
  dropAll(): void {
    for (const client of this.clients) client.socket.terminate();
  }

  /** The next published event is lost: instead of delivering it, every connection is cut. */
  dropBeforeNextEvent(): void {
    this.dropOnNextEvent = true;
  }

  get connections(): number {
    return this.clients.size;
  }

  /** Clients authenticated and listening to `trade_updates`. */
  get listeners(): number {
    return [...this.clients].filter((c) => c.authenticated && c.streams.has('trade_updates')).length;
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    const client: Client = { socket, authenticated: false, streams: new Set() };
    this.clients.add(client);
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => this.clients.delete(client));
    socket.on('message', (data: RawData) => this.receive(client, data));
  }

  private receive(client: Client, data: RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
    } catch {
      this.send(client, { action: 'error', data: { error_message: 'invalid JSON' } });
      return;
    }
    this.options.received.push(message);
    if (!isObject(message)) return;
    const data_ = isObject(message.data) ? message.data : {};
    switch (message.action) {
      case 'authenticate':
      case 'auth': {
        const keyId = String(message.action === 'auth' ? message.key : data_.key_id);
        const secret = String(message.action === 'auth' ? message.secret : data_.secret_key);
        client.authenticated = this.options.verify(keyId, secret);
        this.send(client, { stream: 'authorization', data: { action: 'authenticate', status: client.authenticated ? 'authorized' : 'unauthorized' } });
        return;
      }
      case 'listen': {
        if (!client.authenticated) {
          this.send(client, { stream: 'authorization', data: { action: 'listen', status: 'unauthorized' } });
          return;
        }
        const asked = Array.isArray(data_.streams) ? data_.streams.map(String) : [];
        client.streams = new Set(asked.filter((s) => KNOWN_STREAMS.has(s)));
        this.send(client, { stream: 'listening', data: { streams: [...client.streams] } });
        return;
      }
      default:
        this.send(client, { action: 'error', data: { error_message: `unknown action: ${String(message.action)}` } });
    }
  }

  private send(client: Client, frame: unknown): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    const text = JSON.stringify(frame);
    client.socket.send(this.options.frames === 'binary' ? Buffer.from(text) : text, { binary: this.options.frames === 'binary' });
  }
}
