import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { answerInfo, type UserInfo } from './info.js';
import type { ReplayVenue } from './venue.js';
import { isCandleInterval, type BookLevel, type Candle, type CandleInterval, type PerpAssetCtx } from './wire.js';

/**
 * The WebSocket side of the fake, on path /ws, speaking the venue's protocol (docs "WebSocket" →
 * "Subscriptions", "Post requests", "Timeouts and heartbeats"; no real capture exists):
 *   → {"method":"subscribe","subscription":{...}}    ← {"channel":"subscriptionResponse","data":{"method":"subscribe","subscription":{...as sent}}}
 *   → {"method":"unsubscribe","subscription":{...}}  ← {"channel":"subscriptionResponse","data":{"method":"unsubscribe","subscription":{...}}}
 *   → {"method":"ping"}                              ← {"channel":"pong"}
 *   → {"method":"post","id":n,"request":{"type":"info","payload":{...}}}
 *                                                    ← {"channel":"post","data":{"id":n,"response":{"type":"info","payload":{"type":...,"data":...}}}}
 *   pushes: {"channel":"allMids","data":{"mids":{...}}}, {"channel":"l2Book","data":{"coin","levels","time"}},
 *           {"channel":"candle","data":{candle}}, {"channel":"activeAssetCtx","data":{"coin","ctx"}}
 *   errors: {"channel":"error","data":"Invalid subscription {...}" | "Already subscribed: {...}" | "Already unsubscribed: {...}"}
 * The error texts are the prefixes @nktkas/hyperliquid 0.32.2 matches on
 * (src/transport/websocket/_postRequest.ts), followed by the subscription as JSON.
 */

/** Subscription types the fake acknowledges; only these are ever pushed (the user ones by the fake exchange). */
const PUSHED = ['allMids', 'l2Book', 'candle', 'activeAssetCtx', 'orderUpdates', 'userFills'] as const;
/** User-scoped subscriptions: they name the account (`user`). */
const USER_SCOPED = ['orderUpdates', 'userFills'];
const ACKED_ONLY = [
  'trades',
  'bbo',
  'notification',
  'webData2',
  'webData3',
  'userEvents',
  'userFundings',
  'userNonFundingLedgerUpdates',
  'activeAssetData',
  'activeSpotAssetCtx',
  'assetCtxs',
  'spotAssetCtxs',
  'clearinghouseState',
  'openOrders',
  'twapStates',
  'userTwapSliceFills',
  'userTwapHistory',
  'userHistoricalOrders',
  'spotState',
  'allDexsAssetCtxs',
  'allDexsClearinghouseState',
];

export interface StreamSubscription {
  connection: number;
  /** The subscription object as the client sent it. */
  subscription: Record<string, unknown>;
}

export interface ReceivedMessage {
  connection: number;
  at: number;
  /** The message parsed, or the raw text when it was not JSON. */
  message: unknown;
}

interface Subscription {
  key: string;
  raw: Record<string, unknown>;
  type: string;
  coin: string | undefined;
  interval: CandleInterval | undefined;
  nSigFigs: number | null;
  mantissa: number | null;
  dex: string;
  /** The account of a user-scoped subscription (lower-case). */
  user: string | undefined;
}

interface Connection {
  id: number;
  ws: WebSocket;
  socket: Duplex;
  subs: Map<string, Subscription>;
  idle: ReturnType<typeof setTimeout> | undefined;
}

export interface StreamOptions {
  idleTimeoutMs: number | null;
  snapshotOnSubscribe: boolean;
}

function normalize(raw: Record<string, unknown>): Subscription | string {
  const type = raw.type;
  if (typeof type !== 'string' || (!(PUSHED as readonly string[]).includes(type) && !ACKED_ONLY.includes(type))) return 'invalid';
  const coin = typeof raw.coin === 'string' ? raw.coin : undefined;
  if ((type === 'l2Book' || type === 'candle' || type === 'activeAssetCtx' || type === 'trades' || type === 'bbo') && coin === undefined) return 'invalid';
  let interval: CandleInterval | undefined;
  if (type === 'candle') {
    if (!isCandleInterval(raw.interval)) return 'invalid';
    interval = raw.interval;
  }
  const nSigFigs = typeof raw.nSigFigs === 'number' ? raw.nSigFigs : null;
  const mantissa = typeof raw.mantissa === 'number' ? raw.mantissa : null;
  const dex = typeof raw.dex === 'string' ? raw.dex : '';
  const user = typeof raw.user === 'string' ? raw.user.toLowerCase() : undefined;
  if (USER_SCOPED.includes(type) && (user === undefined || !/^0x[0-9a-f]{40}$/.test(user))) return 'invalid';
  const key = JSON.stringify([type, coin ?? null, interval ?? null, nSigFigs, mantissa, dex, user ?? null]);
  return { key, raw, type, coin, interval, nSigFigs, mantissa, dex, user };
}

/** A text frame header (server frames are not masked). */
function frameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const header = Buffer.alloc(10);
  header[0] = 0x81;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

export class ReplayStreams {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly conns = new Map<number, Connection>();
  private readonly log: ReceivedMessage[] = [];
  private nextId = 0;
  private refuse = 0;
  private cut = false;
  private sent = 0;
  /** The fills a userFills subscription gets as its snapshot (set when the fake exchange runs). */
  userFillsSnapshot: ((user: string) => unknown[]) | undefined;
  /** The account info types of post requests (set when the fake exchange runs). */
  userInfo: UserInfo | undefined;

  constructor(
    private readonly venue: ReplayVenue,
    private readonly options: StreamOptions,
  ) {}

  // ---- connections -----------------------------------------------------------------------

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    if (this.refuse > 0) {
      this.refuse--;
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, socket));
  }

  private accept(ws: WebSocket, socket: Duplex): void {
    const conn: Connection = { id: ++this.nextId, ws, socket, subs: new Map(), idle: undefined };
    this.conns.set(conn.id, conn);
    this.armIdle(conn);
    ws.on('message', (data, isBinary) => {
      this.armIdle(conn);
      this.onMessage(conn, isBinary ? '' : String(data));
    });
    ws.on('close', () => this.drop(conn));
    ws.on('error', () => this.drop(conn));
  }

  private drop(conn: Connection): void {
    if (conn.idle) clearTimeout(conn.idle);
    this.conns.delete(conn.id);
  }

  private armIdle(conn: Connection): void {
    if (conn.idle) clearTimeout(conn.idle);
    conn.idle = undefined;
    const ms = this.options.idleTimeoutMs;
    if (ms !== null) conn.idle = setTimeout(() => conn.ws.close(1000, 'idle'), ms);
  }

  setIdleTimeout(ms: number | null): void {
    this.options.idleTimeoutMs = ms;
    for (const conn of this.conns.values()) this.armIdle(conn);
  }

  setSnapshotOnSubscribe(on: boolean): void {
    this.options.snapshotOnSubscribe = on;
  }

  connections(): number {
    return this.conns.size;
  }

  subscriptions(): StreamSubscription[] {
    return [...this.conns.values()].flatMap((conn) => [...conn.subs.values()].map((s) => ({ connection: conn.id, subscription: { ...s.raw } })));
  }

  received(): ReceivedMessage[] {
    return this.log.map((m) => ({ ...m }));
  }

  /** Messages sent to clients so far (acks, pongs, pushes, errors). */
  sentCount(): number {
    return this.sent;
  }

  /** Refuses the next `n` upgrade requests with 503. */
  refuseConnections(n: number): void {
    this.refuse = n;
  }

  /** The next push goes out as a frame cut in half, and each connection that gets it is torn down. */
  cutNextPush(): void {
    this.cut = true;
  }

  /** Closes every stream: `abrupt` tears the TCP connection down (client sees 1006), else a close frame (default 1012). */
  killAll(options: { abrupt?: boolean; code?: number; reason?: string } = {}): number {
    const conns = [...this.conns.values()];
    for (const conn of conns) {
      if (options.abrupt) conn.ws.terminate();
      else conn.ws.close(options.code ?? 1012, options.reason ?? 'restart');
    }
    return conns.length;
  }

  async close(): Promise<void> {
    for (const conn of this.conns.values()) conn.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---- protocol ---------------------------------------------------------------------------

  private send(conn: Connection, message: unknown): void {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    this.sent++;
    conn.ws.send(JSON.stringify(message));
  }

  private error(conn: Connection, text: string): void {
    this.send(conn, { channel: 'error', data: text });
  }

  private onMessage(conn: Connection, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.log.push({ connection: conn.id, at: Date.now(), message: text });
      this.error(conn, `Error parsing JSON into valid websocket request: ${text}`);
      return;
    }
    this.log.push({ connection: conn.id, at: Date.now(), message });
    const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
    switch (m.method) {
      case 'ping':
        return this.send(conn, { channel: 'pong' });
      case 'subscribe':
        return this.subscribe(conn, m.subscription);
      case 'unsubscribe':
        return this.unsubscribe(conn, m.subscription);
      case 'post':
        return this.post(conn, m.id, m.request);
      default:
        return this.error(conn, `Error parsing JSON into valid websocket request: ${text}`);
    }
  }

  private subscribe(conn: Connection, raw: unknown): void {
    const object = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const sub = normalize(object);
    if (typeof sub === 'string') return this.error(conn, `Invalid subscription ${JSON.stringify(raw ?? null)}`);
    if (conn.subs.has(sub.key)) return this.error(conn, `Already subscribed: ${JSON.stringify(raw)}`);
    conn.subs.set(sub.key, sub);
    this.send(conn, { channel: 'subscriptionResponse', data: { method: 'subscribe', subscription: raw } });
    if (this.options.snapshotOnSubscribe) {
      const message = this.messageFor(sub);
      if (message) this.send(conn, message);
    }
  }

  private unsubscribe(conn: Connection, raw: unknown): void {
    const object = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const sub = normalize(object);
    if (typeof sub === 'string') return this.error(conn, `Invalid subscription ${JSON.stringify(raw ?? null)}`);
    if (!conn.subs.delete(sub.key)) return this.error(conn, `Already unsubscribed: ${JSON.stringify(raw)}`);
    this.send(conn, { channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription: raw } });
  }

  private post(conn: Connection, id: unknown, request: unknown): void {
    const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
    if (r.type !== 'info') {
      return this.send(conn, {
        channel: 'post',
        data: { id, response: { type: 'error', payload: 'This venue takes info post requests only: send actions to POST /exchange.' } },
      });
    }
    const answer = answerInfo(this.venue, JSON.stringify(r.payload ?? null), this.userInfo);
    if (answer.status !== 200) return this.send(conn, { channel: 'post', data: { id, response: { type: 'error', payload: answer.body } } });
    this.send(conn, { channel: 'post', data: { id, response: { type: 'info', payload: { type: answer.type, data: JSON.parse(answer.body) } } } });
  }

  /** The current message of a subscription (its snapshot), or undefined for types never pushed. */
  private messageFor(sub: Subscription): unknown {
    const asset = sub.coin !== undefined ? this.venue.asset(sub.coin) : undefined;
    switch (sub.type) {
      case 'allMids':
        return sub.dex === '' ? { channel: 'allMids', data: { mids: this.venue.allMids() } } : undefined;
      case 'l2Book':
        return asset ? { channel: 'l2Book', data: this.venue.l2Book(asset, sub.nSigFigs, sub.nSigFigs === 5 ? sub.mantissa : null) } : undefined;
      case 'candle':
        return asset && sub.interval ? { channel: 'candle', data: this.venue.currentCandle(asset, sub.interval) } : undefined;
      case 'activeAssetCtx':
        return asset ? { channel: 'activeAssetCtx', data: { coin: asset.name, ctx: this.venue.ctx(asset) } } : undefined;
      case 'userFills':
        // The venue's snapshot on subscribe: the account's recent fills, flagged as such.
        return sub.user && this.userFillsSnapshot
          ? { channel: 'userFills', data: { user: sub.user, fills: this.userFillsSnapshot(sub.user), isSnapshot: true } }
          : undefined;
      default:
        return undefined;
    }
  }

  // ---- pushes -----------------------------------------------------------------------------

  /** Sends `build(sub)` to every subscription that `match`es; returns how many messages went out. */
  private push(match: (sub: Subscription) => boolean, build: (sub: Subscription) => unknown): number {
    const cut = this.cut;
    this.cut = false;
    let count = 0;
    for (const conn of [...this.conns.values()]) {
      for (const sub of conn.subs.values()) {
        if (!match(sub)) continue;
        const message = build(sub);
        if (message === undefined) continue;
        count++;
        if (cut) {
          this.sendCut(conn, JSON.stringify(message));
          break;
        }
        this.send(conn, message);
      }
    }
    return count;
  }

  /** Writes the frame header and half the payload straight to the socket, then tears it down. */
  private sendCut(conn: Connection, text: string): void {
    const payload = Buffer.from(text, 'utf8');
    this.sent++;
    conn.socket.write(Buffer.concat([frameHeader(payload.length), payload.subarray(0, Math.floor(payload.length / 2))]));
    conn.socket.destroy();
  }

  pushAllMids(): number {
    return this.push(
      (s) => s.type === 'allMids' && s.dex === '',
      (s) => this.messageFor(s),
    );
  }

  pushL2Book(coin: string, levels?: [BookLevel[], BookLevel[]]): number {
    const asset = this.venue.asset(coin);
    if (!asset) throw new Error(`no asset ${coin}`);
    this.venue.setBook(asset, levels);
    return this.push(
      (s) => s.type === 'l2Book' && s.coin === coin,
      (s) => this.messageFor(s),
    );
  }

  pushCandle(coin: string, interval: CandleInterval, candle?: Candle): number {
    const asset = this.venue.asset(coin);
    if (!asset) throw new Error(`no asset ${coin}`);
    const data = candle ?? this.venue.currentCandle(asset, interval);
    return this.push(
      (s) => s.type === 'candle' && s.coin === coin && s.interval === interval,
      () => ({ channel: 'candle', data }),
    );
  }

  /** Pushes `data` on a user-scoped channel (orderUpdates, userFills) to every subscription of `user`. */
  pushUser(channel: 'orderUpdates' | 'userFills', user: string, data: unknown): number {
    const who = user.toLowerCase();
    return this.push(
      (s) => s.type === channel && s.user === who,
      () => ({ channel, data }),
    );
  }

  /** Tears down every connection holding a user-scoped subscription (the client sees 1006); returns how many. */
  dropUserStreams(): number {
    const conns = [...this.conns.values()].filter((c) => [...c.subs.values()].some((s) => s.user !== undefined));
    for (const conn of conns) conn.ws.terminate();
    return conns.length;
  }

  pushActiveAssetCtx(coin: string, ctx?: PerpAssetCtx): number {
    const asset = this.venue.asset(coin);
    if (!asset) throw new Error(`no asset ${coin}`);
    if (ctx) this.venue.setCtx(coin, ctx);
    return this.push(
      (s) => s.type === 'activeAssetCtx' && s.coin === coin,
      (s) => this.messageFor(s),
    );
  }
}
