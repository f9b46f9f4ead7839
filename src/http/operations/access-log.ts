import type { ServerResponse } from 'node:http';
import { pino, type Logger } from 'pino';
import type { Exchange } from '../pipeline/exchange.js';

/** What the edge knows of a finished request: the request as the stages saw it, the method it was received with and its route template. */
export interface AccessEntry {
  exchange: Exchange;
  /** The method as received (a HEAD is served as its GET). */
  receivedMethod: string;
  /** The request line's target as received (path and query). */
  url: string;
  /** The route template, `/graphql`, an operations route, or `unmatched`. */
  route: string;
}

/** Told once per request, when its response closes (after it finished, or when the connection closed first), with its duration. */
export type AccessLog = (entry: AccessEntry, res: ServerResponse, elapsedMs: number) => void;

/**
 * One line per finished request: request id, method, URL, route template, status, duration
 * (`responseTime`, ms), `keyId` / `walletSession` when it authenticated, remote address.
 * `request completed` at info; `request failed` at error for a 5xx or a connection closed before
 * the answer ended (`err.message` "request aborted"), but for a probe's 503, which is its answer.
 * Headers are never logged, so no API key, session token or signature can appear. With the info
 * level off (LOG_LEVEL=warn) only the failures are written.
 *
 * The line is the one pino would write for `logger.info({ requestId, req, res, responseTime }, msg)`
 * (same fields, same order, the logger's level, time and bindings), built as one string and
 * written to the logger's destination: no child logger, serializers or object walk per request.
 * A logger that shapes its lines itself (formatters, mixin, redaction of the line's own fields,
 * hooks, a message prefix, req/res serializers, a multistream) is given the object instead; the
 * gateway's own redaction (credential fields of environments and settings) leaves the line alone.
 */
export function accessLog(logger: Logger): AccessLog {
  const write = directWriter(logger) ?? objectWriter(logger);
  return (entry, res, elapsedMs) => {
    const aborted = !res.writableEnded;
    const failed = (aborted || res.statusCode >= 500) && !probeAnswered(entry.route, res);
    if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
    write(failed ? 50 : 30, entry, res.statusCode, Math.round(elapsedMs), aborted);
  };
}

type Writer = (level: 30 | 50, entry: AccessEntry, status: number, ms: number, aborted: boolean) => void;

/**
 * `/readyz` or `/healthz` answered in full: a 503 there means "starting" or "draining" (the
 * probe's answer, polled by orchestrators every few seconds), logged as a completed request.
 */
function probeAnswered(route: string, res: ServerResponse): boolean {
  return (route === '/readyz' || route === '/healthz') && res.writableEnded;
}

const message = (level: 30 | 50) => (level === 30 ? 'request completed' : 'request failed');

/** Who the request authenticated as, by id only: `keyId` for an API key, `walletSession` (a digest prefix) for a wallet. */
function principalOf(exchange: Exchange): { keyId: string } | { walletSession: string } | undefined {
  const auth = exchange.auth?.current;
  if (auth?.kind === 'key') return { keyId: auth.key.id };
  if (auth?.kind === 'wallet') return { walletSession: auth.sessionId };
  return undefined;
}

function objectWriter(logger: Logger): Writer {
  return (level, entry, status, ms, aborted) => {
    const line = {
      requestId: entry.exchange.requestId,
      req: { method: entry.receivedMethod, url: entry.url, route: entry.route, remoteAddress: entry.exchange.remoteAddress },
      res: { statusCode: status, ...principalOf(entry.exchange) },
      responseTime: ms,
      ...(aborted ? { err: { message: 'request aborted' } } : {}),
    };
    if (level === 30) logger.info(line, message(level));
    else logger.error(line, message(level));
  };
}

/** The top-level fields of an access line (with pino's own): a redaction path starting with one of them takes the object path. */
const LINE_FIELDS = new Set(['requestId', 'req', 'res', 'responseTime', 'err', 'msg', 'level', 'time', 'pid', 'hostname', 'service']);

/** The parts of a pino logger its own `write` uses, by pino's symbols. */
interface PinoInternals {
  stream: { write(line: string): unknown; [key: symbol]: unknown };
  levelPrefix: Record<number, string>;
  time: () => string;
  end: string;
}

function internals(logger: Logger): PinoInternals | undefined {
  const s = pino.symbols;
  const l = logger as unknown as Record<symbol, unknown>;
  const stream = l[s.streamSym] as PinoInternals['stream'] | undefined;
  const formatters = l[s.formattersSym] as { log?: unknown } | undefined;
  const serializers = (l[s.serializersSym] ?? {}) as Record<string, unknown>;
  const plain =
    typeof stream?.write === 'function' &&
    stream[Symbol.for('pino.metadata')] !== true &&
    !l[s.mixinSym] &&
    !formatters?.log &&
    !(l[s.hooksSym] as { streamWrite?: unknown } | undefined)?.streamWrite &&
    l[s.messageKeySym] === 'msg' &&
    !l[s.nestedKeySym] &&
    !logger.msgPrefix &&
    // Redaction (pino keys its stringifiers by a path's first field) may censor other fields, never the line's own.
    Object.keys((l[s.stringifiersSym] ?? {}) as object).every((field) => !LINE_FIELDS.has(field)) &&
    !serializers.req &&
    !serializers.res;
  if (!plain) return undefined;
  return {
    stream,
    levelPrefix: l[s.lsCacheSym] as Record<number, string>,
    time: l[s.timeSym] as () => string,
    end: l[s.endSym] as string,
  };
}

/** Whether the access line is written pre-shaped to this logger's destination (else given to pino as an object). */
export function writesPreShaped(logger: Logger): boolean {
  return internals(logger) !== undefined;
}

function directWriter(logger: Logger): Writer | undefined {
  const pinoParts = internals(logger);
  if (!pinoParts) return undefined;
  const { stream, levelPrefix, time, end } = pinoParts;
  const chindingsSym = pino.symbols.chindingsSym;
  return (level, entry, status, ms, aborted) => {
    const { exchange } = entry;
    const principal = principalOf(exchange);
    const address = exchange.remoteAddress;
    stream.write(
      `${levelPrefix[level]}${time()}${(logger as unknown as Record<symbol, string>)[chindingsSym]}` +
        // The request id is [\w.-]{8,64} or a UUID (request-id.ts) and the method an HTTP token: no escaping needed.
        `,"requestId":"${exchange.requestId}","req":{"method":"${entry.receivedMethod}","url":${JSON.stringify(entry.url)},"route":${JSON.stringify(entry.route)}` +
        `${address === undefined ? '' : `,"remoteAddress":${JSON.stringify(address)}`}},"res":{"statusCode":${status}` +
        `${principal === undefined ? '' : 'keyId' in principal ? `,"keyId":${JSON.stringify(principal.keyId)}` : `,"walletSession":${JSON.stringify(principal.walletSession)}`}}` +
        `,"responseTime":${ms}${aborted ? ',"err":{"message":"request aborted"}' : ''},"msg":"${message(level)}"${end}`,
    );
  };
}
