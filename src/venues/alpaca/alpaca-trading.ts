import { ApiError, type trading } from '@alpacahq/alpaca-trade-api';
import type { Logger } from 'pino';
import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { gateRefusal } from '../../errors/gate-refusals.js';
import type { ExecutionInstruction } from '../../execution/instruction.js';
import type { Quote, VenueContext, VenueFill } from '../../execution/venues/execution-venue.js';
import { OrderBookVenue } from '../../execution/venues/order-book-venue.js';
import {
  restingExpectation,
  VenueOutcomeUnknown,
  VenueRefusal,
  type RoutedOrder,
  type RoutedOrderState,
  type RoutedVenue,
  type VenueAccount,
  type VenueReadiness,
} from '../../execution/venues/routed-venue.js';
import type { MarketDirectory } from '../../market-data/market-directory.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { alpacaShortfall } from './alpaca-buying-power.js';
import { AlpacaOrderStream } from './alpaca-order-stream.js';
import { checkAlpacaRules } from './alpaca-order-rules.js';
import { ALPACA_FEE_TOKEN, ALPACA_SIZE_DECIMALS, alpacaClientOrderId, alpacaOrderRequest, alpacaOrderState, restsAtAlpaca } from './alpaca-orders.js';
import { equityMarketId } from './alpaca-quotes.js';
import { alpacaRefusal, isDuplicateOrder, outcomeUnknown, readFailure } from './alpaca-refusals.js';
import type { AlpacaSettings } from './alpaca-settings.js';
import { AlpacaTradingApi } from './alpaca-trading-api.js';
import { RecentAnswer } from './recent-answer.js';

/** The account and positions a preview checks an order against are at most this old (Alpaca's own check at the order stays the truth). */
const FUNDS_TTL_MS = 2_000;
/** An asset's tradability and fractionability change rarely. */
const ASSET_TTL_MS = 10 * 60_000;
/** A cancel is asynchronous at Alpaca (pending_cancel first): its order is read back this many more times, this far apart. */
const CANCEL_READS = 3;
const CANCEL_READ_PAUSE_MS = 200;
/** After a reconnect, at most this many resting orders are looked up (the order follower looks up the rest). */
const CATCH_UP_LIMIT = 200;

export interface AlpacaTradingDeps {
  directory: MarketDirectory;
  logger: Logger;
  upstream: UpstreamObserver;
  now?: () => number;
}

/**
 * Alpaca paper trading as a routed venue (ALPACA_ORDERS=paper) for one gateway account
 * (ALPACA_ORDERS_ACCOUNT): orders are placed, followed, looked up and cancelled at Alpaca
 * through its SDK, by client order id; the gateway's paper ledger is not used. A preview is
 * priced by the paper equities venue against the venue's top of book (no fee: Alpaca charges no
 * commission) and checked against Alpaca's rules, its buying power and positions, and the market
 * clock's session.
 */
export class AlpacaTrading implements RoutedVenue {
  readonly routed = true;
  readonly boundAccount: string;
  private readonly pricing: OrderBookVenue;
  private readonly api: AlpacaTradingApi;
  private readonly stream: AlpacaOrderStream;
  private readonly funds: RecentAnswer<{ account: trading.Account; positions: trading.Position[] }>;
  private readonly assets = new Map<string, RecentAnswer<trading.Assets>>();
  /** Client order ids last seen resting at Alpaca (looked up after the stream reconnects). */
  private readonly resting = new Set<string>();
  private readonly now: () => number;

  constructor(
    readonly protocolId: string,
    settings: AlpacaSettings,
    boundAccount: string,
    deps: AlpacaTradingDeps,
  ) {
    this.boundAccount = boundAccount;
    this.now = deps.now ?? Date.now;
    // Fractional shares go to 9 decimals at Alpaca; whole shares where the asset is not fractionable (checkAlpacaRules).
    const markets = () => deps.directory.ofProtocol(protocolId).map((m) => ({ ...m, sizeDecimals: ALPACA_SIZE_DECIMALS }));
    this.pricing = new OrderBookVenue({ protocolId, markets, feeRate: '0', style: 'equity' });
    this.api = new AlpacaTradingApi(protocolId, settings, deps.upstream);
    this.stream = new AlpacaOrderStream(settings, { venue: protocolId, logger: deps.logger, observer: deps.upstream, catchUp: () => this.catchUp() });
    this.funds = new RecentAnswer(async () => {
      const [account, positions] = await Promise.all([this.api.account(), this.api.positions()]);
      return { account, positions };
    }, FUNDS_TTL_MS);
  }

  clientOrderIdFor(accountId: string, referenceId: string): string {
    return alpacaClientOrderId(accountId, referenceId);
  }

  marketFor(instruction: ExecutionInstruction): MarketDefinition {
    return this.pricing.marketFor(instruction);
  }

  async quote(i: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    if (ctx.accountId !== undefined && ctx.accountId !== this.boundAccount)
      throw gateRefusal('POLICY_DENIED', `${this.protocolId} routes the orders of one gateway account to its Alpaca paper account, not this one's.`, {
        gate: 'venue',
        check: 'venue_account',
      });
    const market = this.marketFor(i);
    const priced = await this.pricing.quote(i, ctx);
    const [asset, funds] = await Promise.all([
      this.assetOf(market.asset).catch((err: unknown) => unhealthy(readFailure(`${market.asset}'s asset`, err))),
      this.funds.get().catch((err: unknown) => unhealthy(readFailure('the account', err))),
    ]);
    checkAlpacaRules(i, asset);
    const amount = new Decimal(priced.amount);
    const limit = i.metadata?.type === 'limit' && i.metadata.price ? new Decimal(i.metadata.price) : undefined;
    const side = priced.side ?? 'buy';
    const costUsd = limit ? limit.mul(amount) : new Decimal(priced.notionalUsd);
    const { expectedFill, ...quote } = priced;
    // What rests is not simulated: only an ioc limit is filled or cancelled at once, as the book says.
    const ioc = limit !== undefined && i.metadata?.timeInForce === 'ioc';
    return {
      ...quote,
      fee: '0',
      feeToken: ALPACA_FEE_TOKEN,
      // The venue's account is the truth of a routed order, never the paper ledger.
      changes: {},
      mayGoNegative: [],
      insufficient: alpacaShortfall({ symbol: market.asset, side, amount, costUsd }, funds.account, funds.positions),
      ...(ioc && expectedFill ? { expectedFill } : {}),
      ...(limit !== undefined && !ioc ? { expectedFill: restingExpectation(expectedFill) } : {}),
    };
  }

  fill(): Promise<VenueFill> {
    throw new Error('Alpaca paper trading places orders at Alpaca; it does not fill them in the gateway');
  }

  async place(order: RoutedOrder): Promise<RoutedOrderState> {
    if (order.accountId !== this.boundAccount) throw new VenueRefusal('POLICY_DENIED', 'the Alpaca paper account takes the orders of another gateway account');
    const request = alpacaOrderRequest(order);
    let placed: trading.Order;
    try {
      placed = await this.api.place(request);
    } catch (err) {
      if (isDuplicateOrder(err)) return this.placedBefore(order.clientOrderId);
      throw alpacaRefusal(err) ?? outcomeUnknown(err);
    } finally {
      this.funds.forget();
    }
    return this.noted(alpacaOrderState(placed));
  }

  /** Alpaca already holds the client order id (a retry whose first answer was lost): its state, never a second order. */
  private async placedBefore(clientOrderId: string): Promise<RoutedOrderState> {
    let found: trading.Order | undefined;
    try {
      found = await this.api.orderOf(clientOrderId);
    } catch (err) {
      throw outcomeUnknown(err);
    }
    if (!found) throw new VenueOutcomeUnknown('Alpaca holds this client order id but did not find its order');
    return this.noted(alpacaOrderState(found));
  }

  /** By client order id alone: Alpaca finds an order without its market. */
  async cancel(clientOrderId: string, _market?: MarketDefinition): Promise<RoutedOrderState> {
    const found = await this.api.orderOf(clientOrderId).catch((err: unknown) => {
      throw alpacaRefusal(err) ?? err;
    });
    if (!found?.id) throw new VenueRefusal('INVALID_REQUEST', 'Alpaca has no order of this client order id');
    try {
      await this.api.cancel(found.id);
    } catch (err) {
      // 422: no longer cancelable (it filled, or ended, first): its state says which.
      if (!(err instanceof ApiError && err.status === 422)) throw alpacaRefusal(err) ?? err;
    } finally {
      this.funds.forget();
    }
    return this.noted(alpacaOrderState(await this.afterCancel(found.id)));
  }

  /** The order after a cancel request, read back while Alpaca still has the cancel pending. */
  private async afterCancel(orderId: string): Promise<trading.Order> {
    let order = await this.api.order(orderId);
    for (let read = 0; read < CANCEL_READS && order.status === 'pending_cancel'; read++) {
      await new Promise((resolve) => setTimeout(resolve, CANCEL_READ_PAUSE_MS));
      order = await this.api.order(orderId);
    }
    return order;
  }

  async lookup(clientOrderId: string, _market?: MarketDefinition): Promise<RoutedOrderState | null> {
    const found = await this.api.orderOf(clientOrderId).catch((err: unknown) => {
      throw new Error(readFailure('an order look-up', err), { cause: err });
    });
    return found ? this.noted(alpacaOrderState(found)) : null;
  }

  follow(onUpdate: (state: RoutedOrderState) => void): () => void {
    return this.stream.follow((state) => {
      // A fill or a cancel moves buying power and positions: the next preview reads them again.
      this.funds.forget();
      onUpdate(this.noted(state));
    });
  }

  followAlive(): boolean {
    return this.stream.alive();
  }

  async account(): Promise<VenueAccount> {
    const [account, positions] = await Promise.all([this.api.account(), this.api.positions()]).catch((err: unknown) => {
      throw new Error(readFailure('the account', err), { cause: err });
    });
    return {
      // The account number, never a key.
      account: account.accountNumber ?? account.id,
      // What Alpaca did not send is not shown (never a 0 in its place).
      available: account.buyingPower ? { USD: account.buyingPower } : {},
      equity: account.equity ? { USD: account.equity } : {},
      positions: positions.map((p) => ({
        marketId: equityMarketId(p.symbol),
        size: p.side === 'short' && !p.qty.startsWith('-') ? `-${p.qty}` : p.qty,
        entryPrice: p.avgEntryPrice ?? null,
        unrealizedPnl: p.unrealizedPl ?? null,
      })),
      at: this.now(),
    };
  }

  /** Ready when Alpaca takes the keys and the account is ACTIVE and may trade; otherwise why not (a status, never a key). */
  async readiness(): Promise<VenueReadiness> {
    let account: trading.Account;
    try {
      account = await this.api.account();
    } catch (err) {
      return { ready: false, reason: readFailure('the account', err) };
    }
    if (account.status !== 'ACTIVE') return { ready: false, reason: `the Alpaca account is ${String(account.status)}, not ACTIVE` };
    if (account.tradingBlocked || account.accountBlocked || account.tradeSuspendedByUser)
      return { ready: false, reason: 'Alpaca blocks trading on the account' };
    return { ready: true };
  }

  private assetOf(symbol: string): Promise<trading.Assets> {
    let answer = this.assets.get(symbol);
    if (!answer) this.assets.set(symbol, (answer = new RecentAnswer(() => this.api.asset(symbol), ASSET_TTL_MS)));
    return answer.get();
  }

  /** Keeps track of which orders rest at Alpaca (to look them up after a reconnect). */
  private noted(state: RoutedOrderState): RoutedOrderState {
    if (restsAtAlpaca(state)) this.resting.add(state.clientOrderId);
    else this.resting.delete(state.clientOrderId);
    return state;
  }

  private async catchUp(): Promise<RoutedOrderState[]> {
    const states: RoutedOrderState[] = [];
    for (const clientOrderId of [...this.resting].slice(0, CATCH_UP_LIMIT)) {
      const found = await this.api.orderOf(clientOrderId);
      if (found) states.push(alpacaOrderState(found));
    }
    return states;
  }
}

/** Alpaca cannot be asked what a preview needs: the venue counts as unhealthy (503), never as a crash. */
function unhealthy(reason: string): never {
  throw gateRefusal('VENUE_UNHEALTHY', `${reason}.`, { gate: 'venue_health' });
}
