import { BaseError, createPublicClient, http, type PublicClient } from 'viem';
import type { UpstreamReport } from '../../sources/market-data-source.js';
import { RequestBudget } from '../../sources/request-budget.js';
import { UpstreamHealth } from '../../sources/upstream-health.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import type { ChainSettings } from './chain-settings.js';

/** A request the RPC failed, in the operator's words: the method and what went wrong, never the URL (it may hold a key). */
export class RpcFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RpcFailure';
  }
}

/** How much of an RPC's own error message is passed on (it reaches /api/v1/public/status). */
const MAX_RPC_MESSAGE = 120;

/**
 * The operator's JSON-RPC node, as viem's public client reaches it. Every HTTP request goes
 * through `send`: it waits for the venue's request budget (never sent over it), carries its own
 * timeout (started once the budget let it go, so waiting for the budget is not the node's
 * slowness), pauses the budget by a 429's Retry-After, refuses what is not a JSON-RPC answer
 * (a page, malformed JSON, an error object) with a reason, and counts each outcome for /metrics.
 * viem never retries (retryCount 0): the next poll asks again, within the budget.
 */
export class ChainRpc {
  readonly client: PublicClient;
  private readonly budget: RequestBudget;
  private readonly health: UpstreamHealth;
  private slowestMs = 0;

  constructor(
    private readonly venue: string,
    private readonly settings: ChainSettings,
    private readonly observer: UpstreamObserver,
  ) {
    this.budget = new RequestBudget(settings.requestsPerMinute);
    this.health = new UpstreamHealth(this.budget);
    this.client = createPublicClient({
      transport: http(settings.rpcUrl, { fetchFn: (input, init) => this.send(input, init), retryCount: 0, timeout: 0 }),
    });
  }

  /** The longest a request took since the last call (the poll's slowest answer). */
  takeSlowestMs(): number {
    const slowest = this.slowestMs;
    this.slowestMs = 0;
    return slowest;
  }

  report(): UpstreamReport {
    return this.health.report();
  }

  close(): void {
    this.budget.close();
  }

  private async send(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const method = rpcMethod(init.body);
    await this.budget.take(1);
    const started = Date.now();
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
      text = await response.text();
    } catch (err) {
      if (timeout.aborted) throw this.fail(method, 'timeout', `no answer within ${this.settings.timeoutMs} ms`);
      throw this.fail(method, 'error', networkReason(err));
    } finally {
      this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
    }
    if (response.status === 429) throw this.fail(method, '429', '429 Too Many Requests', response.headers.get('retry-after'));
    if (!response.ok) throw this.fail(method, response.status >= 500 ? '5xx' : '4xx', `${response.status} ${response.statusText}`.trim());
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) throw this.fail(method, 'error', `answered ${type.split(';')[0] || 'without a content type'}, not JSON`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw this.fail(method, 'error', 'the answer was not valid JSON');
    }
    const problem = rpcProblem(body);
    if (problem) throw this.fail(method, 'rpc_error', problem);
    this.observer.request(this.venue, method, '200');
    this.health.succeeded();
    return new Response(text, { status: response.status, headers: { 'content-type': 'application/json' } });
  }

  private fail(method: string, outcome: string, reason: string, retryAfter?: string | null): RpcFailure {
    this.observer.request(this.venue, method, outcome);
    const message = `${method}: ${reason}`;
    this.health.failed(message, outcome === '429' ? { retryAfter } : undefined);
    return new RpcFailure(message);
  }
}

/** The JSON-RPC method of a request body (`batch` for an array). */
function rpcMethod(body: RequestInit['body']): string {
  if (typeof body !== 'string') return 'unknown';
  try {
    const parsed = JSON.parse(body) as unknown;
    if (Array.isArray(parsed)) return 'batch';
    const method = (parsed as { method?: unknown }).method;
    return typeof method === 'string' && /^\w{1,64}$/.test(method) ? method : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** What is wrong with a JSON-RPC 2.0 answer: an error object, or neither a result nor an error. */
function rpcProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the answer was not a JSON-RPC response';
  const { error } = body as { error?: { code?: unknown; message?: unknown } };
  if (error !== undefined) {
    const message = typeof error?.message === 'string' ? error.message.replace(/[^\x20-\x7e]/g, ' ').slice(0, MAX_RPC_MESSAGE) : 'no message';
    return `RPC error ${typeof error?.code === 'number' ? error.code : '?'}: ${message}`;
  }
  return 'result' in body ? undefined : 'a JSON-RPC answer without a result';
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return `network error (${cause.code})`;
  return 'network error';
}

/** The RPC's failure behind an error (viem wraps what the transport threw), if the request failed there. */
export function rpcFailureOf(err: unknown): RpcFailure | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (e instanceof RpcFailure) return e;
  return undefined;
}

/**
 * A failed read, in the operator's words: the RPC's failure where the request failed, else what
 * viem found wrong with the answer (a call that reverted, data that does not decode); never a
 * URL, which viem's messages carry and which may hold a key.
 */
export function describeFailure(err: unknown, rpcUrl: string): string {
  const failure = rpcFailureOf(err);
  if (failure) return failure.message;
  const text = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
  return text
    .split(rpcUrl)
    .join('<rpc>')
    .replace(/https?:\/\/\S+/g, '<url>')
    .slice(0, 200);
}
