import { SubscriptionClient, WebSocketTransport, type OrderUpdatesWsEvent, type UserFillsWsEvent } from '@nktkas/hyperliquid';
import type { Logger } from 'pino';
import WebSocket from 'ws';
import type { RoutedOrderState } from '../../execution/venues/routed-venue.js';
import { fillSummary, filledOf, orderState, type VenueFill, type VenueOrder } from './hyperliquid-order-states.js';

/** A terminated socket (its reconnects exhausted) is made again after this. */
const RESTART_MS = 5_000;
/** Fills of an order not seen on the order stream are kept this long, waiting for it. */
const ORPHAN_FILL_MS = 60_000;

interface Tracked {
  cloid: string;
  order: VenueOrder;
  status: string;
  at: number;
  /** The state last told (status, filled size, price and fee), so an update is told once. */
  told?: string;
}

/**
 * The account's order stream: the venue's `orderUpdates` and `userFills` subscriptions on a
 * WebSocket of their own (the SDK pings, reconnects and resubscribes by itself), merged into
 * one routed state per order: an order's update is told once its fills add up to what it says
 * filled, whichever of the two arrives last, with the fills' average price and fees. Orders
 * without a cloid were not placed by the gateway and are left out.
 */
export class HyperliquidOrderStream {
  private transport: WebSocketTransport | undefined;
  private subscribed = false;
  private open = false;
  private stopped = true;
  private dropped = false;
  private restart: NodeJS.Timeout | undefined;
  private readonly orders = new Map<number, Tracked>();
  private readonly fills = new Map<number, { at: number; byTid: Map<number, VenueFill> }>();

  constructor(
    private readonly settings: { network: 'mainnet' | 'testnet'; wsUrl: string; timeoutMs: number; account: `0x${string}` },
    private readonly tell: (state: RoutedOrderState) => void,
    /** Called after the stream came back from a drop: what changed meanwhile is looked up. */
    private readonly caughtUp: () => void,
    private readonly logger: Logger,
  ) {}

  /** Up: connected and subscribed to both channels. */
  alive(): boolean {
    return !this.stopped && this.subscribed && this.open;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restart);
    const transport = this.transport;
    this.transport = undefined;
    this.subscribed = false;
    this.open = false;
    void transport?.close().catch(() => undefined);
  }

  private connect(): void {
    const { settings } = this;
    const transport = new WebSocketTransport({
      url: settings.wsUrl,
      isTestnet: settings.network === 'testnet',
      timeout: settings.timeoutMs,
      reconnect: { WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, maxRetries: 20, connectionTimeout: settings.timeoutMs },
    });
    this.transport = transport;
    transport.socket.addEventListener('open', () => {
      this.open = true;
      if (this.dropped && this.subscribed) {
        this.dropped = false;
        this.caughtUp();
      }
    });
    transport.socket.addEventListener('close', () => {
      this.open = false;
      this.dropped = true;
    });
    transport.socket.addEventListener('terminate', () => {
      if (this.stopped || this.transport !== transport) return;
      this.logger.warn({ venue: 'hyperliquid' }, 'order stream gave up reconnecting; starting it again');
      this.subscribed = false;
      this.restart = setTimeout(() => this.connect(), RESTART_MS);
      this.restart.unref();
    });
    const client = new SubscriptionClient({ transport });
    const user = settings.account;
    Promise.all([client.orderUpdates({ user }, (e) => this.onOrders(e)), client.userFills({ user }, (e) => this.onFills(e))]).then(
      () => {
        if (this.transport !== transport) return;
        this.subscribed = true;
        this.open = transport.socket.readyState === 1;
      },
      (err: unknown) => {
        if (this.transport === transport && !this.stopped)
          this.logger.warn({ venue: 'hyperliquid', err: err instanceof Error ? err.message : String(err) }, 'order stream subscriptions refused');
      },
    );
  }

  /** An order's state learnt elsewhere (a look-up): once it ended, the stream stops waiting for its updates. */
  ended(state: RoutedOrderState): void {
    if (state.venueOrderId === null || state.status === 'open' || state.status === 'partially_filled') return;
    this.orders.delete(Number(state.venueOrderId));
    this.fills.delete(Number(state.venueOrderId));
  }

  private onOrders(updates: OrderUpdatesWsEvent): void {
    for (const u of updates) {
      const cloid = u.order.cloid;
      if (!cloid) continue;
      this.orders.set(u.order.oid, { ...this.orders.get(u.order.oid), cloid, order: u.order, status: u.status, at: u.statusTimestamp });
      this.settle(u.order.oid);
    }
  }

  private onFills(event: UserFillsWsEvent): void {
    const now = Date.now();
    for (const f of event.fills) {
      // A snapshot (on every subscribe) repeats the account's recent fills: only those of orders followed now matter.
      if (event.isSnapshot && !this.orders.has(f.oid)) continue;
      const entry = this.fills.get(f.oid) ?? { at: now, byTid: new Map<number, VenueFill>() };
      entry.byTid.set(f.tid, f);
      this.fills.set(f.oid, entry);
    }
    for (const oid of new Set(event.fills.map((f) => f.oid))) this.settle(oid);
    for (const [oid, entry] of this.fills) if (!this.orders.has(oid) && now - entry.at > ORPHAN_FILL_MS) this.fills.delete(oid);
  }

  /** Tells an order's state once its fills account for what it filled; forgets it once it ended. */
  private settle(oid: number): void {
    const tracked = this.orders.get(oid);
    if (!tracked) return;
    const fills = [...(this.fills.get(oid)?.byTid.values() ?? [])];
    const filled = filledOf(tracked.order);
    // Told once the fills and the order agree: its fills (or its update) are still on their way.
    if (!fillSummary(fills).filled.eq(filled)) return;
    const state = orderState(tracked.cloid, tracked.order, tracked.status, tracked.at, fills);
    const told = `${state.status}|${state.filledAmount}|${state.averagePrice}|${state.fee}`;
    if (told !== tracked.told) {
      tracked.told = told;
      this.tell(state);
    }
    if (state.status !== 'open' && state.status !== 'partially_filled') {
      this.orders.delete(oid);
      this.fills.delete(oid);
    }
  }
}
