import type { IncomingMessage, ServerResponse } from 'node:http';
import { toHex, type Hex } from 'viem';
import { blockJson, type FakeChain } from './chain.js';
import { executeCall } from './contracts.js';
import { readRequestBody } from '../../../replay/http-body.js';

/** A fault the fake answers instead of the node's answer. */
export type RpcFault =
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'serverError'; status: number }
  | { kind: 'hang' }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformedJson' }
  | { kind: 'wrongContentType' }
  | { kind: 'rpcError'; code: number; message: string };

/** Which requests a fault applies to: a JSON-RPC method (`eth_call`), or any. */
export interface RpcFaultFilter {
  method?: string;
}

/** One HTTP request the fake received. */
export interface RecordedRpc {
  seq: number;
  /** Machine time (ms) it was read. */
  at: number;
  /** The JSON-RPC method (the first, for a batch). */
  method: string;
  /** What an eth_call called (`getReservesData`, `aggregate3: slot0, liquidity`), when it was one. */
  call: string | undefined;
  /** The block tag it named (eth_call, eth_getBlockByNumber). */
  blockTag: string | undefined;
  fault: RpcFault['kind'] | undefined;
  /** The HTTP status answered; undefined while it hangs. */
  status: number | undefined;
}

export interface ServerState {
  chain: FakeChain;
  faults: { fault: RpcFault; remaining: number; filter: RpcFaultFilter }[];
  requests: RecordedRpc[];
  /** The sequence number of the next request. */
  seq: number;
  /** Responses held open by a `hang`, ended when the fake closes. */
  hung: Set<ServerResponse>;
}

interface RpcRequest {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const JSON_TYPE = 'application/json';

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function takeFault(state: ServerState, method: string): RpcFault | undefined {
  const index = state.faults.findIndex((f) => f.filter.method === undefined || f.filter.method === method);
  const found = state.faults[index];
  if (!found) return undefined;
  found.remaining -= 1;
  if (found.remaining <= 0) state.faults.splice(index, 1);
  return found.fault;
}

/** The node:http listener: JSON-RPC 2.0 over POST, single requests and batches. */
export function createRpcHandler(state: ServerState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(state, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'chain fake: internal error');
      else res.destroy();
    });
  };
}

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = Date.now();
  const raw = await readRequestBody(req);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const requests: RpcRequest[] = Array.isArray(parsed) ? (parsed as RpcRequest[]) : parsed && typeof parsed === 'object' ? [parsed as RpcRequest] : [];
  const first = requests[0];
  const method = typeof first?.method === 'string' ? first.method : 'unknown';
  const entry: RecordedRpc = { seq: state.seq++, at, method, call: undefined, blockTag: blockTagOf(first), fault: undefined, status: undefined };
  state.requests.push(entry);
  if (req.method !== 'POST') {
    entry.status = 405;
    return send(res, 405, 'text/plain', 'Method Not Allowed', { allow: 'POST' });
  }
  const fault = takeFault(state, method);
  entry.fault = fault?.kind;
  if (fault?.kind === 'hang') {
    state.hung.add(res);
    res.on('close', () => state.hung.delete(res));
    return;
  }
  if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
  if (requests.length === 0) {
    entry.status = 200;
    return send(res, 200, JSON_TYPE, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
  }
  const answers = requests.map((r) => answer(state, r, entry));
  const body = JSON.stringify(Array.isArray(parsed) ? answers : answers[0]);
  switch (fault?.kind) {
    case 'rateLimit':
      entry.status = 429;
      return send(res, 429, JSON_TYPE, JSON.stringify({ jsonrpc: '2.0', id: first?.id ?? null, error: { code: 429, message: 'Too Many Requests' } }), {
        'retry-after': String(fault.retryAfterSeconds),
      });
    case 'serverError':
      entry.status = fault.status;
      return send(res, fault.status, 'text/plain', 'upstream node error');
    case 'malformedJson':
      entry.status = 200;
      // The real answer, cut halfway.
      return send(res, 200, JSON_TYPE, body.slice(0, Math.max(1, Math.floor(body.length / 2))));
    case 'wrongContentType':
      entry.status = 200;
      return send(res, 200, 'text/html; charset=utf-8', '<html><body><h1>502 Bad Gateway</h1></body></html>');
    case 'rpcError':
      entry.status = 200;
      return send(res, 200, JSON_TYPE, JSON.stringify({ jsonrpc: '2.0', id: first?.id ?? null, error: { code: fault.code, message: fault.message } }));
    default:
      entry.status = 200;
      return send(res, 200, JSON_TYPE, body);
  }
}

function blockTagOf(r: RpcRequest | undefined): string | undefined {
  if (!Array.isArray(r?.params)) return undefined;
  const tag = r.method === 'eth_call' ? r.params[1] : r.method === 'eth_getBlockByNumber' ? r.params[0] : undefined;
  return typeof tag === 'string' ? tag : undefined;
}

const rpcError = (id: unknown, code: number, message: string, data?: Hex) => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: { code, message, ...(data ? { data } : {}) },
});
const rpcResult = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id: id ?? null, result });

/** One JSON-RPC request answered from the chain, as a geth node answers it. */
function answer(state: ServerState, r: RpcRequest, entry: RecordedRpc): unknown {
  const { chain } = state;
  const params = Array.isArray(r.params) ? (r.params as unknown[]) : [];
  switch (r.method) {
    case 'eth_chainId':
      return rpcResult(r.id, toHex(chain.chainId));
    case 'net_version':
      return rpcResult(r.id, String(chain.chainId));
    case 'eth_blockNumber':
      return rpcResult(r.id, toHex(chain.head().number));
    case 'eth_getBlockByNumber': {
      const block = chain.block(params[0]);
      return rpcResult(r.id, block && block !== 'pruned' ? blockJson(block) : null);
    }
    case 'eth_call': {
      const block = chain.block(params[1] ?? 'latest');
      if (block === undefined) return rpcError(r.id, -32000, 'header not found');
      if (block === 'pruned') return rpcError(r.id, -32000, 'missing trie node');
      const tx = (params[0] ?? {}) as { to?: unknown; data?: unknown; input?: unknown };
      const data = (typeof tx.data === 'string' ? tx.data : typeof tx.input === 'string' ? tx.input : '0x') as Hex;
      const outcome = executeCall(block.state, typeof tx.to === 'string' ? tx.to : '', data);
      entry.call = outcome.functionName;
      return outcome.reverted ? rpcError(r.id, 3, 'execution reverted', outcome.data) : rpcResult(r.id, outcome.data);
    }
    default:
      return rpcError(r.id, -32601, `the method ${String(r.method)} does not exist/is not available`);
  }
}
