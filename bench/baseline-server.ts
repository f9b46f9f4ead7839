/**
 * The wire baseline: a raw node:http server answering each measured request with the bytes the
 * gateway answered it with, pre-serialised (same status, body, Content-Type, Content-Length,
 * Content-Encoding and other headers). What it costs is what the kernel, the loopback and
 * node:http cost for these responses, nothing more.
 *
 *   node --import tsx bench/baseline-server.ts <responses.json>   # prints {"port": n} on stdout
 *
 * The file is written by bench/public-reads.ts: [{url, acceptEncoding, status, headers: [[k, v]...], body: base64}].
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// Only this module of the bench: the others install the bench's own signal handlers.
import { baselineKey, type BaselineEntry } from './lib/baseline-format.js';

const file = process.argv[2];
if (!file) throw new Error('usage: baseline-server.ts <responses.json>');
const answers = new Map<string, { status: number; headers: string[]; body: Buffer }>();
for (const e of JSON.parse(readFileSync(file, 'utf8')) as BaselineEntry[]) {
  answers.set(baselineKey(e.url, e.acceptEncoding), { status: e.status, headers: e.headers.flat(), body: Buffer.from(e.body, 'base64') });
}

const server = createServer((req, res) => {
  const answer = answers.get(baselineKey(req.url ?? '', req.headers['accept-encoding']));
  if (!answer) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not a measured request');
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
