import { ExchangeBook, type OrderStatusAnswer, type WireOrder } from './exchange-book.js';
import type { ExchangeAnswer } from './http.js';
import { l1Signer, type WireSignature } from './signatures.js';
import type { ReplayVenue } from './venue.js';

/** The fake exchange's accounts and rules (`trading` in the start options). */
export interface FakeTradingOptions {
  /** Whose signatures it checks: testnet ("b", the default) or mainnet ("a") phantom agents. */
  network?: 'mainnet' | 'testnet';
  /** Master accounts, each with the API wallets (agents) it approved and its USDC (default 10 000). */
  accounts: readonly { address: string; agents?: readonly string[]; usdc?: string }[];
  /** Fee rates as fractions of notional (default the venue's base tier: taker 0.045 %, maker 0.015 %). */
  fees?: { taker?: string; maker?: string };
}

/** What the next `order` action meets (a test control). */
interface NextOrder {
  /** Each order of it is refused with this text (after the venue's own checks of price and size). */
  reject?: string;
}

const TEXT = 'text/plain; charset=utf-8';
const ok = (type: 'order' | 'cancel', statuses: unknown[]): ExchangeAnswer => ({
  status: 200,
  body: JSON.stringify({ status: 'ok', response: { type, data: { statuses } } }),
});
const err = (response: string): ExchangeAnswer => ({ status: 200, body: JSON.stringify({ status: 'err', response }) });
const deserialize = (detail: string): ExchangeAnswer => ({
  status: 422,
  contentType: TEXT,
  body: `Failed to deserialize the JSON body into the target type: ${detail}`,
});

type Body = { action: Record<string, unknown>; nonce: number; signature: WireSignature; vaultAddress?: string; expiresAfter?: number };

function bodyProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'invalid type: expected struct ExchangeRequest';
  const b = body as Record<string, unknown>;
  if (typeof b.action !== 'object' || b.action === null) return 'missing field `action`';
  if (typeof (b.action as Record<string, unknown>).type !== 'string') return 'missing field `type`';
  if (typeof b.nonce !== 'number' || !Number.isSafeInteger(b.nonce) || b.nonce < 0) return 'missing field `nonce`';
  const sig = b.signature as Record<string, unknown> | undefined;
  if (typeof sig !== 'object' || sig === null || typeof sig.r !== 'string' || typeof sig.s !== 'string' || typeof sig.v !== 'number')
    return 'missing field `signature`';
  return undefined;
}

/**
 * POST /exchange of the fake: every action's signature is checked (the L1 "phantom agent" scheme,
 * signatures.ts) and must come from an account or an agent it approved, else the venue's
 * `User or API Wallet 0x… does not exist.`; a nonce is taken once per signer (`Invalid nonce:
 * duplicate nonce N`). Then `order` (limit Gtc, Alo, Ioc; grouping `na`), `cancel` (by oid) and
 * `cancelByCloid` act on the book (exchange-book.ts), answered in the venue's shapes.
 */
export class FakeExchange {
  readonly book: ExchangeBook;
  readonly network: 'mainnet' | 'testnet';
  private readonly nonces = new Map<string, Set<number>>();
  private readonly nextOrders: NextOrder[] = [];
  /** The next exchange requests are left unanswered (`placed`: acted on first; `lost`: never seen). */
  private readonly hangs: ('placed' | 'lost')[] = [];

  constructor(
    private readonly venue: ReplayVenue,
    options: FakeTradingOptions,
  ) {
    this.network = options.network ?? 'testnet';
    this.book = new ExchangeBook(venue, { taker: options.fees?.taker ?? '0.00045', maker: options.fees?.maker ?? '0.00015' });
    for (const a of options.accounts) this.book.addAccount(a.address, a.agents ?? [], a.usdc ?? '10000');
  }

  /** The venue's clock. */
  now(): number {
    return this.venue.now();
  }

  /** The next `order` action's orders are refused with `message`. */
  rejectNextOrder(message: string): void {
    this.nextOrders.push({ reject: message });
  }

  /** The next exchange request gets no answer; with `placed` it is acted on first (an answer lost on the way back). */
  hangNext(kind: 'placed' | 'lost'): void {
    this.hangs.push(kind);
  }

  async handle(body: unknown): Promise<ExchangeAnswer> {
    const problem = bodyProblem(body);
    if (problem) return deserialize(problem);
    const b = body as Body;
    const hang = this.hangs.shift();
    if (hang === 'lost') return { status: 0, body: '', hang: true };
    const answer = await this.act(b);
    return hang === 'placed' ? { ...answer, hang: true } : answer;
  }

  private async act(b: Body): Promise<ExchangeAnswer> {
    // The fake's accounts trade for themselves: no vault or subaccount is registered, as the venue answers for an unknown one.
    if (b.vaultAddress !== undefined) return err(`Vault not registered: ${String(b.vaultAddress)}`);
    // An action signed with expiresAfter is refused once the venue's clock has passed it (the wording as reported by clients).
    if (b.expiresAfter !== undefined && b.expiresAfter < this.venue.now()) return err('Action already expired');
    const signer = await l1Signer(b, this.network);
    if (!signer) return err('Invalid signature.');
    const account = this.book.accountOfSigner(signer);
    if (!account) return err(`User or API Wallet ${signer} does not exist.`);
    const used = this.nonces.get(signer) ?? new Set<number>();
    if (used.has(b.nonce)) return err(`Invalid nonce: duplicate nonce ${b.nonce}`);
    used.add(b.nonce);
    this.nonces.set(signer, used);
    const now = this.venue.now();
    const action = b.action;
    switch (action.type) {
      case 'order': {
        if (!Array.isArray(action.orders)) return deserialize('missing field `orders`');
        // TP/SL groupings attach trigger orders, which this venue's accounts do not take (see exchange-book.ts).
        if (action.grouping !== 'na') return err(`Grouping ${String(action.grouping)} is refused: this venue takes grouping na only.`);
        const next = this.nextOrders.shift();
        const statuses: OrderStatusAnswer[] = (action.orders as WireOrder[]).map((o) => this.book.place(account, o, now, next?.reject));
        return ok('order', statuses);
      }
      case 'cancel': {
        if (!Array.isArray(action.cancels)) return deserialize('missing field `cancels`');
        return ok(
          'cancel',
          (action.cancels as { a: number; o: number }[]).map((c) => this.book.cancel(account, c.a, c.o, now)),
        );
      }
      case 'cancelByCloid': {
        if (!Array.isArray(action.cancels)) return deserialize('missing field `cancels`');
        return ok(
          'cancel',
          (action.cancels as { asset: number; cloid: string }[]).map((c) => this.book.cancel(account, c.asset, c.cloid, now)),
        );
      }
      default:
        // An action type the fake venue does not take is refused as the venue refuses a body it cannot read.
        return deserialize(`unknown variant \`${String(action.type)}\``);
    }
  }
}
