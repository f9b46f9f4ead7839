import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextFrameWriter } from '../src/http/graphql/ws-next-frames.js';

// The direct lane's frames, written on a real `ws` server socket and read by a real `ws` client.
let server: WebSocketServer;
let url: string;
const accepted: WebSocket[] = [];
beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => accepted.push(socket));
  await new Promise((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function connect(options?: WebSocket.ClientOptions): Promise<{ client: WebSocket; socket: WebSocket; texts: string[]; binary: boolean[] }> {
  const before = accepted.length;
  const client = new WebSocket(url, options);
  const texts: string[] = [];
  const binary: boolean[] = [];
  client.on('message', (data, isBinary) => (texts.push(String(data)), binary.push(isBinary)));
  await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
  while (accepted.length === before) await new Promise((r) => setTimeout(r, 5));
  return { client, socket: accepted[accepted.length - 1]!, texts, binary };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('graphql-ws next frames written directly', () => {
  it('two subscription ids on one socket get byte-correct text frames of every length class, in order with ws sends', async () => {
    const { client, socket, texts, binary } = await connect();
    const ids = ['1', 'ünï "2"'];
    const write = ids.map((id) => nextFrameWriter(socket, id));
    // Around 126 bytes in all the 7-bit length ends; 10 KB (written as head + shared tail) takes the
    // 16-bit length, 70 KB the 64-bit one.
    const results = [{ a: 1 }, { data: 'x'.repeat(80) }, { data: 'z'.repeat(10_000) }, { data: 'y'.repeat(70_000) }, { data: 'é'.repeat(20) }].map((r) =>
      Buffer.from(JSON.stringify(r)),
    );
    const expected: string[] = [];
    for (const bytes of results)
      for (const [i, id] of ids.entries()) {
        expect(write[i]!(bytes)).toBe(true);
        expected.push(`{"id":${JSON.stringify(id)},"type":"next","payload":${bytes.toString()}}`);
        socket.send(`between ${expected.length}`);
        expected.push(`between ${expected.length}`);
      }
    await until(() => texts.length >= expected.length);
    client.close();
    expect(texts).toEqual(expected);
    expect(binary.every((b) => !b)).toBe(true);
    for (const text of texts.filter((t) => t.startsWith('{'))) expect(JSON.parse(text)).toHaveProperty('type', 'next');
  });

  it('declines (writes nothing) on a socket that negotiated permessage-deflate or is closed', async () => {
    const deflating = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: true });
    await new Promise((resolve) => deflating.once('listening', resolve));
    const sockets: WebSocket[] = [];
    deflating.on('connection', (s) => sockets.push(s));
    const client = new WebSocket(`ws://127.0.0.1:${(deflating.address() as AddressInfo).port}`, { perMessageDeflate: true });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    await until(() => sockets.length > 0);
    expect(sockets[0]!.extensions).toContain('permessage-deflate');
    expect(nextFrameWriter(sockets[0]!, '1')(Buffer.from('{}'))).toBe(false);
    client.close();
    await new Promise((resolve) => deflating.close(resolve));

    const { client: plain, socket } = await connect();
    socket.close();
    expect(nextFrameWriter(socket, '1')(Buffer.from('{}'))).toBe(false);
    plain.terminate();
  });
});
