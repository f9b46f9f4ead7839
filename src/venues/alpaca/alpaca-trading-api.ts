import { NotFoundError, OrdersApi, trading } from '@alpacahq/alpaca-trade-api';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import type { AlpacaSettings } from './alpaca-settings.js';
import { alpacaFailure } from './alpaca-upstream.js';

/**
 * Alpaca's paper trading API through the SDK's own classes: `paper: true`, and the configured
 * trading host (ALPACA_TRADING_URL: a proxy, the tests' fake) as `basePath`, which the settings
 * never let be the live host. Each call has the venue's timeout (ALPACA_TIMEOUT_MS), is never
 * retried by the SDK (an order is placed once; its outcome is looked up by client order id) and
 * is counted for /metrics as the data plane's requests are.
 */
export class AlpacaTradingApi {
  private readonly orders: OrdersApi;
  private readonly accounts: trading.AccountsApi;
  private readonly positionsApi: trading.PositionsApi;
  private readonly assets: trading.AssetsApi;

  constructor(
    private readonly venue: string,
    settings: AlpacaSettings,
    private readonly observer: UpstreamObserver,
  ) {
    const config = new trading.Configuration({
      basePath: settings.tradingUrl.replace(/\/+$/, ''),
      paper: true,
      keyId: settings.keyId,
      secret: settings.secret,
      timeoutMs: settings.timeoutMs,
    });
    this.orders = new OrdersApi(config);
    this.accounts = new trading.AccountsApi(config);
    this.positionsApi = new trading.PositionsApi(config);
    this.assets = new trading.AssetsApi(config);
  }

  private async call<T>(type: string, send: () => Promise<T>): Promise<T> {
    try {
      const answer = await send();
      this.observer.request(this.venue, type, '200');
      return answer;
    } catch (err) {
      this.observer.request(this.venue, type, alpacaFailure(err).outcome);
      throw err;
    }
  }

  account(): Promise<trading.Account> {
    return this.call('account', () => this.accounts.getAccount());
  }

  positions(): Promise<trading.Position[]> {
    return this.call('positions', () => this.positionsApi.getAllOpenPositions());
  }

  asset(symbol: string): Promise<trading.Assets> {
    return this.call('asset', () => this.assets.getV2AssetsSymbolOrAssetId({ symbolOrAssetId: symbol }));
  }

  /** `POST /v2/orders`: never retried (the SDK retries no POST). */
  place(request: trading.PostOrderRequest): Promise<trading.Order> {
    return this.call('order', () => this.orders.postOrder({ postOrderRequest: request }));
  }

  /** The order of a client order id; undefined when Alpaca has none (404). */
  async orderOf(clientOrderId: string): Promise<trading.Order | undefined> {
    try {
      return await this.call('order_lookup', () => this.orders.getOrderByClientOrderId({ clientOrderId }));
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  order(orderId: string): Promise<trading.Order> {
    return this.call('order_lookup', () => this.orders.getOrderByOrderID({ orderId }));
  }

  /** `DELETE /v2/orders/{id}`: the cancel is requested (204); the order's state is read after. */
  cancel(orderId: string): Promise<void> {
    return this.call('order_cancel', () => this.orders.deleteOrderByOrderID({ orderId }));
  }
}
