import { createHash } from 'node:crypto';
import { ExchangeClient, HttpTransport, InfoClient, type OrderSuccessResponse } from '@nktkas/hyperliquid';
import type { Logger } from 'pino';
import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { gateRefusal } from '../../errors/gate-refusals.js';
import { ROUTED_UNSEEN_MS } from '../../execution/execution-reconciler.js';
import type { ExecutionInstruction } from '../../execution/instruction.js';
import type { Quote, VenueContext, VenueFill as PaperFill } from '../../execution/venues/execution-venue.js';
import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import {
  VenueOutcomeUnknown,
  VenueRefusal,
  type RoutedOrder,
  type RoutedOrderState,
  type RoutedVenue,
  type VenueAccount,
  type VenueReadiness,
} from '../../execution/venues/routed-venue.js';
import type { RequestBudget } from '../../sources/request-budget.js';
import { HyperliquidAccount } from './hyperliquid-account.js';
import { HyperliquidAssets } from './hyperliquid-assets.js';
import { chargedTransport } from './hyperliquid-charged-transport.js';
import type { HyperliquidOrderSettings } from './hyperliquid-order-settings.js';
import { orderState, type VenueFill } from './hyperliquid-order-states.js';
import { HyperliquidOrderStream } from './hyperliquid-order-stream.js';
import { wireNumber } from './hyperliquid-order-rules.js';
import { checkOrderFields, orderPrice, orderRules, TAKER_FEE } from './hyperliquid-quote-rules.js';
import { exchangeFailure, type ExchangeFailure } from './hyperliquid-refusals.js';

/** How long a readiness answer is reused by previews: an approved agent for a minute, a refusal a few seconds. */
const READY_MS = 60_000;
const NOT_READY_MS = 5_000;
const TIF = { gtc: 'Gtc', alo: 'Alo', ioc: 'Ioc' } as const;
/** How long an action stays valid at the venue: half the reconciler's wait, the other half a margin for the clocks' skew. */
const ACTION_EXPIRES_MS = ROUTED_UNSEEN_MS / 2;
const MISSING_ORDER = /never placed, already canceled, or filled/i;

export interface HyperliquidTradingSettings {
  network: 'mainnet' | 'testnet';
  apiUrl: string;
  wsUrl: string;
  timeoutMs: number;
  orders: HyperliquidOrderSettings;
}

/**
 * Hyperliquid perpetuals as a routed venue, through the SDK: orders signed by the operator's API
 * wallet (an agent of the master account, HYPERLIQUID_ACCOUNT) and placed under a cloid derived
 * from the referenceId; followed on the account's order and fill streams; looked up, cancelled
 * and read back by cloid. A preview prices the order on the venue's book (the paper book venue)
 * and checks what the venue would refuse: its tick and lot rules, the $10 minimum, post-only
 * crossing, the account's free margin, and whether the API wallet is approved at all.
 */
export class HyperliquidTrading implements RoutedVenue {
  readonly routed = true;
  /** The one gateway account whose orders this venue account takes. */
  readonly boundAccount: string;
  private readonly paper: OrderBookVenue;
  private readonly info: InfoClient;
  private readonly exchange: ExchangeClient;
  private readonly assets: HyperliquidAssets;
  private readonly venueAccount: HyperliquidAccount;
  private readonly stream: HyperliquidOrderStream;
  private readonly followers = new Set<(state: RoutedOrderState) => void>();
  /** Cloids of orders known to rest at the venue: looked up when the order stream comes back from a drop. */
  private readonly resting = new Set<string>();
  private ready: { at: number; value: Promise<VenueReadiness> } | undefined;
  private readonly now: () => number;

  constructor(
    readonly protocolId: string,
    private readonly settings: HyperliquidTradingSettings,
    private readonly deps: {
      markets: () => readonly MarketDefinition[];
      logger: Logger;
      now?: () => number;
      /** The venue's weight budget, which its market data spends too: every trading request is charged to it. */
      budget?: RequestBudget;
    },
  ) {
    this.now = deps.now ?? Date.now;
    this.boundAccount = settings.orders.boundAccount;
    this.paper = new OrderBookVenue({ protocolId, markets: deps.markets, feeRate: TAKER_FEE, style: 'perpetual' });
    const http = new HttpTransport({ isTestnet: settings.network === 'testnet', apiUrl: settings.apiUrl, timeout: settings.timeoutMs });
    const transport = chargedTransport(http, deps.budget, this.now);
    this.info = new InfoClient({ transport });
    // Every action expires: the venue refuses it once past, so an order can never land after the
    // reconciler took it as never placed (ROUTED_UNSEEN_MS after it was sent).
    this.exchange = new ExchangeClient({ transport, wallet: settings.orders.signer, defaultExpiresAfter: () => this.now() + ACTION_EXPIRES_MS });
    this.assets = new HyperliquidAssets(this.info, this.now);
    this.venueAccount = new HyperliquidAccount(this.info, settings.orders.account, this.now);
    this.stream = new HyperliquidOrderStream(
      { ...settings, account: settings.orders.account },
      (state) => this.tell(state),
      () => void this.catchUp(),
      deps.logger,
    );
  }

  clientOrderIdFor(accountId: string, referenceId: string): string {
    const digest = createHash('sha256').update(`${this.settings.orders.account}|${accountId}|${referenceId}`).digest('hex');
    return `0x${digest.slice(0, 32)}`;
  }

  marketFor(instruction: ExecutionInstruction): MarketDefinition {
    return this.paper.marketFor(instruction);
  }

  /** What the venue would need to fill: its price on the venue's book, checked against every rule the venue would refuse it by. */
  async quote(instruction: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    const market = this.marketFor(instruction);
    const [asset, readiness] = await Promise.all([this.unhealthyUnless(this.assets.of(market.asset)), this.readinessNow()]);
    checkOrderFields(instruction, market, asset);
    const paper = await this.paper.quote(instruction, ctx);
    const rules = orderRules(instruction, paper, asset);
    const insufficient = await this.unhealthyUnless(this.venueAccount.marginShortfall(asset, rules.side, rules.amount, rules.price));
    return {
      ...paper,
      price: rules.quotedPrice,
      notionalUsd: rules.notionalUsd,
      fee: rules.fee,
      // The venue account is the truth: nothing is booked on the paper ledger.
      changes: {},
      mayGoNegative: [],
      tradable: readiness.ready ? { ok: true } : { ok: false, reason: readiness.reason },
      insufficient,
      expectedFill: rules.expectedFill,
    };
  }

  fill(): Promise<PaperFill> {
    throw new Error('Hyperliquid orders are placed at the venue, never filled on paper');
  }

  async place(order: RoutedOrder): Promise<RoutedOrderState> {
    if (order.accountId !== this.boundAccount)
      throw new VenueRefusal('POLICY_DENIED', 'This Hyperliquid account takes the orders of another gateway account only.');
    const asset = await this.refusedUnless(this.assets.of(order.market.asset));
    const { price, size } = orderPrice(order, asset);
    let answer: OrderSuccessResponse;
    try {
      answer = await this.exchange.order({
        orders: [
          {
            a: asset.index,
            b: order.side === 'buy',
            p: wireNumber(price),
            s: wireNumber(size),
            r: false,
            t: { limit: { tif: TIF[order.timeInForce] } },
            c: cloidOf(order.clientOrderId),
          },
        ],
        grouping: 'na',
      });
    } catch (err) {
      return this.failed(order, exchangeFailure(err, this.now()));
    }
    const status = answer.response.data.statuses[0];
    if (status === undefined) throw new VenueOutcomeUnknown('the venue answered the order without a status');
    if (typeof status === 'object' && 'filled' in status) {
      const { totalSz, avgPx, oid } = status.filled;
      const filled = new Decimal(totalSz);
      const fills = await this.fillsOf(oid);
      const rest = new Decimal(order.amount).minus(filled);
      return {
        ...this.stateOf(order.clientOrderId, oid, fills),
        status: rest.gt(0) ? 'cancelled' : 'filled',
        filledAmount: filled.toString(),
        averagePrice: avgPx,
        reason: rest.gt(0) ? `Immediate-or-cancel: ${filled} of ${order.amount} filled; the venue cancelled the rest.` : null,
      };
    }
    // Resting (or waiting for a fill or a trigger): open at the venue.
    const oid = typeof status === 'object' && 'resting' in status ? status.resting.oid : null;
    this.resting.add(order.clientOrderId);
    return { ...this.stateOf(order.clientOrderId, oid, []), status: 'open' };
  }

  async cancel(clientOrderId: string, market: MarketDefinition): Promise<RoutedOrderState> {
    const asset = await this.refusedUnless(this.assets.of(market.asset));
    try {
      await this.exchange.cancelByCloid({ cancels: [{ asset: asset.index, cloid: cloidOf(clientOrderId) }] });
    } catch (err) {
      const failure = exchangeFailure(err, this.now());
      // Already gone (filled or cancelled first): the venue's record says which.
      const missing = failure.kind === 'refused' && MISSING_ORDER.test(failure.refusal.reason);
      if (!missing) throw failure.kind === 'refused' ? failure.refusal : new VenueOutcomeUnknown(failure.kind === 'unknown' ? failure.reason : 'no answer');
      const state = await this.lookup(clientOrderId);
      if (!state) throw new VenueRefusal('INVALID_REQUEST', 'Hyperliquid has no order of this client order id.');
      return state;
    }
    const state = await this.lookup(clientOrderId);
    if (!state) throw new VenueOutcomeUnknown('the venue cancelled the order but does not find it');
    return state;
  }

  async lookup(clientOrderId: string): Promise<RoutedOrderState | null> {
    const answer = await this.info.orderStatus({ user: this.settings.orders.account, oid: cloidOf(clientOrderId) });
    if (answer.status !== 'order') return null;
    const { order, status, statusTimestamp } = answer.order;
    const filled = new Decimal(order.origSz).minus(order.sz);
    const state = orderState(clientOrderId, order, status, statusTimestamp, filled.gt(0) ? await this.fillsOf(order.oid) : []);
    this.track(state);
    return state;
  }

  follow(onUpdate: (state: RoutedOrderState) => void): () => void {
    this.followers.add(onUpdate);
    this.stream.start();
    return () => {
      this.followers.delete(onUpdate);
      if (this.followers.size === 0) this.stream.stop();
    };
  }

  followAlive(): boolean {
    return this.stream.alive();
  }

  account(): Promise<VenueAccount> {
    return this.venueAccount.venueAccount();
  }

  /** Ready when the API wallet is the master account itself or an agent the master account approved (userRole). */
  async readiness(): Promise<VenueReadiness> {
    const { signer, account } = this.settings.orders;
    const agent = signer.address.toLowerCase();
    if (agent === account) return { ready: true };
    let role;
    try {
      role = await this.info.userRole({ user: agent as `0x${string}` });
    } catch (err) {
      return {
        ready: false,
        reason: `Hyperliquid could not be asked whether the API wallet ${agent} is approved (${err instanceof Error ? err.name : 'error'}).`,
      };
    }
    if (role.role === 'agent' && role.data.user.toLowerCase() === account) return { ready: true };
    return {
      ready: false,
      reason: `The API wallet ${agent} is not an approved agent of ${account} on Hyperliquid ${this.settings.network} (the venue says its role is ${role.role}${role.role === 'agent' ? ` of ${role.data.user}` : ''}).`,
    };
  }

  /** Readiness as previews see it: reused for a minute once ready, for a few seconds while not. */
  private async readinessNow(): Promise<VenueReadiness> {
    const now = this.now();
    const cached = this.ready;
    if (cached) {
      const value = await cached.value;
      if (now - cached.at < (value.ready ? READY_MS : NOT_READY_MS)) return value;
    }
    const value = this.readiness();
    this.ready = { at: now, value };
    return value;
  }

  private stateOf(clientOrderId: string, oid: number | null, fills: readonly VenueFill[]): RoutedOrderState {
    const fee = fills.reduce((sum, f) => sum.plus(f.fee), new Decimal(0));
    return {
      clientOrderId,
      venueOrderId: oid === null ? null : String(oid),
      status: 'open',
      filledAmount: '0',
      averagePrice: null,
      fee: fee.toString(),
      feeToken: fills[0]?.feeToken ?? 'USDC',
      reason: null,
      at: this.now(),
    };
  }

  /** What a failed order means: a refusal (thrown), the venue's order already there (a retry), an IOC that matched nothing, or unknown (thrown). */
  private async failed(order: RoutedOrder, failure: ExchangeFailure): Promise<RoutedOrderState> {
    switch (failure.kind) {
      case 'refused':
        throw failure.refusal;
      case 'unknown':
        throw new VenueOutcomeUnknown(failure.reason);
      case 'unmatched':
        return { ...this.stateOf(order.clientOrderId, null, []), status: 'rejected', reason: failure.reason };
      case 'duplicate': {
        const existing = await this.lookup(order.clientOrderId);
        if (!existing) throw new VenueOutcomeUnknown(`the venue says the cloid is taken but does not find its order (${failure.reason})`);
        return existing;
      }
    }
  }

  /** The account's fills of one order (the venue's most recent 2,000 fills); none when they cannot be read (the fee then stays 0). */
  private async fillsOf(oid: number): Promise<VenueFill[]> {
    try {
      const fills = await this.info.userFills({ user: this.settings.orders.account });
      return fills.filter((f) => f.oid === oid);
    } catch (err) {
      this.deps.logger.warn(
        { venue: this.protocolId, oid, err: err instanceof Error ? err.message : String(err) },
        'fills of an order not read; its fee is unknown',
      );
      return [];
    }
  }

  private tell(state: RoutedOrderState): void {
    this.track(state);
    for (const follower of this.followers) follower(state);
  }

  private track(state: RoutedOrderState): void {
    if (state.status === 'open' || state.status === 'partially_filled') this.resting.add(state.clientOrderId);
    else this.resting.delete(state.clientOrderId);
  }

  /** After a drop of the order stream: every order known to rest is looked up, and what changed meanwhile told. */
  private async catchUp(): Promise<void> {
    for (const cloid of [...this.resting]) {
      try {
        const state = await this.lookup(cloid);
        if (!state) continue;
        this.stream.ended(state);
        for (const follower of this.followers) follower(state);
      } catch (err) {
        this.deps.logger.warn(
          { venue: this.protocolId, err: err instanceof Error ? err.message : String(err) },
          'resting order not looked up after the stream came back',
        );
        return;
      }
    }
  }

  /** A read a preview needs: a venue that cannot answer makes the preview VENUE_UNHEALTHY (503), never a crash. */
  private async unhealthyUnless<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (err) {
      throw gateRefusal('VENUE_UNHEALTHY', `Hyperliquid could not be read: ${err instanceof Error ? err.message : String(err)}`, { gate: 'venue_health' });
    }
  }

  /** A read an order needs before it is sent: failing, nothing was placed. */
  private async refusedUnless<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (err) {
      const failure = exchangeFailure(err, this.now());
      if (failure.kind === 'refused') throw failure.refusal;
      throw new VenueRefusal('VENUE_UNHEALTHY', `Hyperliquid could not be read before sending: ${err instanceof Error ? err.message : String(err)}`, {
        retryable: true,
      });
    }
  }
}

/** A client order id as the SDK takes a cloid (0x and 32 hex digits). */
const cloidOf = (clientOrderId: string) => clientOrderId as `0x${string}`;
