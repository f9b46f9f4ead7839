import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { unreadableRequest } from '../../errors/error-factories.js';
import { refusalAnswer } from '../pipeline/answer.js';

/**
 * node's own parser refusals (an unknown method, a request head over the limit, malformed
 * framing) answered as JSON error responses with a request id, instead of an empty 400 or 431.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && !socket.readable)) return void socket.destroy();
    const requestId = randomUUID();
    const answer = refusalAnswer({ requestId }, unreadableRequest(err.code));
    logger.debug({ err: err.code, requestId }, 'client error');
    const body = String(answer.body);
    const head = Object.entries({ ...answer.headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n\r\n${body}`);
  });
}
