import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultQueue, HttpFault } from './faults.js';
import { answerInfo, type UserInfo } from './info.js';
import type { FaultKind, RecordedRequest, TrafficLog } from './traffic.js';
import type { ReplayVenue } from './venue.js';
import { exchangeWeight, infoBaseWeight, infoWeight } from './weights.js';
import { readRequestBody } from '../../../replay/http-body.js';

/** What an /exchange handler answers (the fake exchange's, or the `exchange` start option's). */
export interface ExchangeAnswer {
  status: number;
  contentType?: string;
  body: string;
  /** Leave the request unanswered (the connection stays open until the client gives up or the fake closes). */
  hang?: boolean;
}

/** Handles one POST /exchange body (parsed JSON, or undefined when not JSON; `raw` as received). */
export type ExchangeHandler = (body: unknown, raw: string) => ExchangeAnswer | Promise<ExchangeAnswer>;

export interface HttpState {
  venue: ReplayVenue;
  faults: FaultQueue;
  traffic: TrafficLog;
  /** Answer 429 once the last minute's weight would pass this (null: never). */
  weightLimit: number | null;
  exchange: ExchangeHandler | undefined;
  /** The account info types, when the fake exchange runs. */
  userInfo: UserInfo | undefined;
  /** Responses held open by a `hang` fault, ended when the fake closes. */
  hung: Set<ServerResponse>;
  /** A fixed venue round trip: every request to the path waits this many ms before it is answered (0: none). */
  latencyMs: Record<VenuePath, number>;
}

/** The venue's two HTTP paths. */
export type VenuePath = '/info' | '/exchange';

const TEXT = 'text/plain; charset=utf-8';

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function typeOf(path: string, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (path === '/info') return typeof record.type === 'string' ? record.type : undefined;
  const action = record.action as Record<string, unknown> | undefined;
  return typeof action?.type === 'string' ? action.type : undefined;
}

function send(res: ServerResponse, status: number, contentType: string | undefined, body: string, headers: Record<string, string> = {}): void {
  const all: Record<string, string | number> = { ...headers, 'content-length': Buffer.byteLength(body) };
  if (contentType) all['content-type'] = contentType;
  res.writeHead(status, all);
  res.end(body);
}

/** The node:http request listener of the fake. */
export function createHttpHandler(state: HttpState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(state, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, TEXT, 'replay fake: internal error');
      else res.destroy();
    });
  };
}

async function handle(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = Date.now();
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const rawBody = await readRequestBody(req);
  const body = parse(rawBody);
  const type = typeOf(path, body);
  const entry: Omit<RecordedRequest, 'seq'> = {
    at,
    venueTime: state.venue.now(),
    method: req.method ?? 'GET',
    path,
    contentType: req.headers['content-type'],
    rawBody,
    body,
    type,
    status: undefined,
    fault: undefined,
    items: 0,
    weight: 0,
  };
  const finish = (status: number | undefined, fault?: FaultKind, weight = 0, items = 0) => {
    state.traffic.add({ ...entry, status, fault, weight, items });
  };

  if (path !== '/info' && path !== '/exchange') {
    send(res, 404, undefined, '');
    return finish(404);
  }
  if (req.method !== 'POST') {
    send(res, 405, undefined, '', { allow: 'POST' });
    return finish(405);
  }

  const latency = state.latencyMs[path];
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));

  const fault = state.faults.take(path, type);
  if (fault) return answerFault(state, res, fault, path, rawBody, finish);

  const baseWeight = path === '/info' ? infoBaseWeight(type ?? '') : exchangeWeight((body as Record<string, unknown> | undefined)?.action);
  if (state.weightLimit !== null && state.traffic.weightWithin(60_000, at) + baseWeight > state.weightLimit) {
    const retryAfter = Math.max(1, Math.ceil((state.traffic.relief(state.weightLimit - baseWeight, at) - at) / 1000));
    send(res, 429, TEXT, 'Too Many Requests', { 'retry-after': String(retryAfter) });
    return finish(429, 'weightLimit');
  }

  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    // axum's Json extractor, before the body is read as JSON.
    send(res, 415, TEXT, 'Expected request with `Content-Type: application/json`');
    return finish(415, undefined, baseWeight);
  }

  if (path === '/info') {
    const answer = answerInfo(state.venue, rawBody, state.userInfo);
    send(res, answer.status, answer.contentType, answer.body);
    return finish(answer.status, undefined, answer.status === 200 ? infoWeight(answer.type ?? '', answer.items) : baseWeight, answer.items);
  }

  if (!state.exchange) {
    // A venue started for market data only: it holds no accounts, so no action can be taken (pass `trading` to startHyperliquidReplay).
    send(res, 403, TEXT, 'This venue serves market data only: it holds no trading accounts.');
    return finish(403);
  }
  const answer = await state.exchange(body, rawBody);
  if (answer.hang) {
    hold(state, res);
    return finish(undefined, 'hang', baseWeight);
  }
  send(res, answer.status, answer.contentType ?? 'application/json', answer.body);
  return finish(answer.status, undefined, baseWeight);
}

/** Keeps a response open (a hang), ended when the fake closes. */
function hold(state: HttpState, res: ServerResponse): void {
  state.hung.add(res);
  res.on('close', () => state.hung.delete(res));
}

function answerFault(
  state: HttpState,
  res: ServerResponse,
  fault: HttpFault,
  path: string,
  rawBody: string,
  finish: (status: number | undefined, fault?: FaultKind) => void,
): void {
  switch (fault.kind) {
    case 'rateLimit':
      send(res, 429, TEXT, 'Too Many Requests', { 'retry-after': String(fault.retryAfterSeconds) });
      return finish(429, 'rateLimit');
    case 'serverError':
      send(res, fault.status, TEXT, fault.body);
      return finish(fault.status, 'serverError');
    case 'hang':
      hold(state, res);
      return finish(undefined, 'hang');
    case 'malformedJson': {
      // The real answer, cut halfway: a body that stops mid-value.
      const full =
        path === '/info'
          ? answerInfo(state.venue, rawBody, state.userInfo).body
          : '{"status":"ok","response":{"type":"order","data":{"statuses":[{"resting":{"oid":1}}]}}}';
      send(res, 200, 'application/json', full.slice(0, Math.max(1, Math.floor(full.length / 2))));
      return finish(200, 'malformedJson');
    }
    case 'wrongContentType':
      send(res, 200, fault.contentType, fault.body);
      return finish(200, 'wrongContentType');
  }
}
