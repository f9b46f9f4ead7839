import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidBodyShape, payloadTooLarge, unsupportedContentEncoding } from '../../../errors/error-factories.js';
import { refusalAnswer } from '../answer.js';
import type { Exchange } from '../exchange.js';
import type { Stage, StageResult } from '../stage.js';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A known Content-Encoding (identity only, so no compressed body can expand past the limit) and
 * the body limit, enforced from Content-Length and again while the body streams in; the body is
 * read here, once, for the stages and handlers after. Its media type is checked later (jsonBody),
 * once the route and the credential are known.
 */
export function bodyAdmissionStage(maxBodyBytes: number): Stage {
  return {
    name: 'bodyAdmission',
    // Routes served with a body; a GET's body is never read (node:http discards it).
    appliesTo: (route) => (route.serves === 'contract' || route.serves === 'graphql' || route.serves === 'mcp') && route.method !== 'GET',
    run(exchange) {
      const encoding = exchange.header('content-encoding')?.trim().toLowerCase();
      if (encoding && encoding !== 'identity' && hasBody(exchange)) return refusalAnswer(exchange, unsupportedContentEncoding(encoding));
      if (BODYLESS.has(exchange.method) || exchange.body !== undefined || !exchange.node) return undefined;
      const declared = exchange.header('content-length');
      if (declared !== undefined && Number(declared) > maxBodyBytes) return tooLarge(exchange, exchange.node, maxBodyBytes);
      if (!hasBody(exchange)) return undefined;
      return readBody(exchange, exchange.node, maxBodyBytes);
    },
  };
}

function hasBody(exchange: Exchange): boolean {
  const length = exchange.header('content-length');
  return (length !== undefined && Number(length) > 0) || exchange.header('transfer-encoding') !== undefined;
}

function readBody(exchange: Exchange, node: { req: IncomingMessage & { body?: Buffer }; res: ServerResponse }, maxBodyBytes: number): Promise<StageResult> {
  const { req } = node;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      done();
      chunks.length = 0;
      resolve(tooLarge(exchange, node, maxBodyBytes));
    };
    const onEnd = () => {
      done();
      exchange.body = req.body = Buffer.concat(chunks);
      resolve(undefined);
    };
    // A client gone before its body ended: never run with a partial body (the answer goes nowhere).
    const onClose = () => {
      done();
      resolve(refusalAnswer(exchange, invalidBodyShape('The request body ended before its length.')));
    };
    const done = () => req.off('data', onData).off('end', onEnd).off('close', onClose);
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/** 413 now; the rest of the body is dropped unread and the connection closed after the answer. */
function tooLarge(exchange: Exchange, { req, res }: { req: IncomingMessage; res: ServerResponse }, maxBodyBytes: number): StageResult {
  req.resume();
  res.once('finish', () => setTimeout(() => req.socket.destroy(), 1_000).unref());
  return refusalAnswer(exchange, payloadTooLarge(maxBodyBytes));
}
