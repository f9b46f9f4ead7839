import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { rawHttp } from './support/raw-http.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: 'production' });
});
afterAll(() => gw.close());

const expectErrorShape = (status: number, body: unknown, requestId: string | null, code: string) => {
  expect(body).toMatchObject({ code, retryable: false });
  expect((body as { requestId: string }).requestId).toBe(requestId);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
};

const post = (path: string, body: string, headers: Record<string, string>) => gw.get(path, { method: 'POST', headers, body });

describe('bodies', () => {
  it('a body over the limit (declared) is 413 in the error shape, unread', async () => {
    const res = await post('/api/v1/auth/siwe/nonce', JSON.stringify({ pad: 'x'.repeat(200_000) }), { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expectErrorShape(res.status, await res.json(), res.headers.get('x-request-id'), 'payload_too_large');
  });

  it('a streamed body with no Content-Length is cut off at the limit: 413', async () => {
    const { hostname, port } = new URL(gw.baseUrl);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { hostname, port, path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(16_384);
      let sent = 0;
      const pump = () => {
        while (sent < 2_000_000 && req.write(chunk)) sent += chunk.length;
        if (sent < 2_000_000 && !req.destroyed) req.once('drain', pump);
        else req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe('payload_too_large');
  });

  it('a small JSON body still works', async () => {
    const res = await post('/api/v1/auth/siwe/nonce', '{}', { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
  });

  it.each([
    ['text/plain on /graphql', '/graphql', { 'content-type': 'text/plain' }, '{"query":"{ status { data { mode } } }"}'],
    ['a form-encoded GraphQL mutation', '/graphql', { 'content-type': 'application/x-www-form-urlencoded' }, 'query=mutation%7BcreateSiweNonce%7Bnonce%7D%7D'],
    ['XML on a REST route', '/api/v1/auth/siwe/nonce', { 'content-type': 'application/xml' }, '<a/>'],
    ['a REST body without a content type', '/api/v1/auth/siwe/nonce', {}, '{}'],
  ])('%s: 415 in the error shape', async (_name, path, headers, body) => {
    const res = await post(path, body, headers);
    expect(res.status).toBe(415);
    expectErrorShape(res.status, await res.json(), res.headers.get('x-request-id'), 'unsupported_media_type');
  });

  it('an unknown Content-Encoding: 415', async () => {
    const res = await post('/api/v1/auth/siwe/nonce', '{}', { 'content-type': 'application/json', 'content-encoding': 'x-made-up' });
    expect(res.status).toBe(415);
    expectErrorShape(res.status, await res.json(), res.headers.get('x-request-id'), 'unsupported_content_encoding');
  });
});

describe("node's parser refusals answer JSON with a request id", () => {
  it('an unknown method: 501', async () => {
    const res = await rawHttp(gw.baseUrl, 'FOO /api/v1/public/markets HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res.status).toBe(501);
    expectErrorShape(400, JSON.parse(res.body), res.headers['x-request-id']!, 'method_not_implemented');
  });

  it('a request head over the limit: 431', async () => {
    const res = await rawHttp(gw.baseUrl, `GET /api/v1/public/markets HTTP/1.1\r\nHost: x\r\nx-pad: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expectErrorShape(res.status, JSON.parse(res.body), res.headers['x-request-id']!, 'request_header_too_large');
  });
});
