import type { IncomingMessage } from 'node:http';

/** The fakes take bodies up to this size; a larger one is refused (the request is destroyed). */
const MAX_BODY = 1 << 20;

/** A fake's request body as text, read to its end (rejected past `maxBytes`). Shared by the venues' wire fakes. */
export function readRequestBody(req: IncomingMessage, maxBytes = MAX_BODY): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
