import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { errorHeaders, errorResponse } from '../errors/error-response.js';

export interface RequestEdgeOptions {
  maxBodyBytes: number;
}

/** The node:http request with the body read at the edge: @whatwg-node/server takes a Buffer `body` as the request body. */
type EdgeRequest = IncomingMessage & { body?: Buffer };

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What every request meets before Yoga and Sofa: a known Content-Encoding (identity only, so no
 * compressed body can expand past the limit) and the body limit, enforced from Content-Length and
 * again while the body streams in. Each refusal is the spec's error response. The media type is
 * checked later (useJsonBodies), once the route and the credential are known.
 */
export function admitRequest(req: EdgeRequest, res: ServerResponse, requestId: string, options: RequestEdgeOptions, next: () => void): void {
  const refuse = (status: number, code: string, message: string, extra: Record<string, string> = {}) =>
    writeEdgeError(res, status, code, message, requestId, extra);
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    return refuse(415, 'unsupported_content_encoding', `Content-Encoding ${encoding} is not supported; send the body uncompressed.`, {
      'accept-encoding': 'identity',
    });
  if (BODYLESS.has(req.method ?? '')) return next();
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  const hasBody = (declared !== undefined && declared > 0) || req.headers['transfer-encoding'] !== undefined;
  const tooLarge = () => refuse(413, 'payload_too_large', `The request body is over the limit of ${options.maxBodyBytes} bytes.`, { connection: 'close' });
  if (declared !== undefined && declared > options.maxBodyBytes) return discard(req, res, tooLarge);
  if (!hasBody) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= options.maxBodyBytes) return void chunks.push(chunk);
    req.off('data', onData).off('end', onEnd);
    chunks.length = 0;
    discard(req, res, tooLarge);
  };
  const onEnd = () => {
    req.body = Buffer.concat(chunks);
    next();
  };
  req.on('data', onData).on('end', onEnd);
}

/** Answers now and drops the rest of the body unread, closing the connection after the answer. */
function discard(req: IncomingMessage, res: ServerResponse, answer: () => void): void {
  answer();
  req.resume();
  res.once('finish', () => setTimeout(() => req.socket.destroy(), 1_000).unref());
}

export function writeEdgeError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  requestId: string,
  extra: Record<string, string> = {},
): void {
  const body = JSON.stringify(errorResponse(status, code, message, requestId, { retryable: false }));
  res.writeHead(status, { ...errorHeaders(extra), 'x-request-id': requestId, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * node's own parser refusals (an unknown method, a request head over the limit, malformed
 * framing) answered as JSON error responses with a request id, instead of an empty 400 or 431.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && !socket.readable)) return void socket.destroy();
    const requestId = randomUUID();
    const [status, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request_header_too_large', 'The request head is over the server limit.']
        : err.code === 'HPE_INVALID_METHOD'
          ? [501, 'method_not_implemented', 'The request method is not one this server implements.']
          : [400, 'invalid_request', 'The request could not be read as HTTP.'];
    logger.debug({ err: err.code, requestId }, 'client error');
    const body = JSON.stringify(errorResponse(status, code, message, requestId, { retryable: false }));
    const head = Object.entries({ ...errorHeaders(), 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${head}\r\n\r\n${body}`);
  });
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large', 501: 'Not Implemented' };
