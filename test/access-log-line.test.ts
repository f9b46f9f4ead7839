import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/config/logger.js';
import { accessLog, writesPreShaped, type AccessEntry } from '../src/http/operations/access-log.js';
import type { Exchange } from '../src/http/pipeline/exchange.js';

/** A logger writing parsed lines into `lines` (`mixin` makes pino shape the line itself: the object path). */
function capture(options: pino.LoggerOptions = {}): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info', base: { service: 'trading-gateway' }, ...options }, sink), lines };
}

const entry = (url: string, auth?: Exchange['auth'], route = '/api/v1/public/markets/{asset}'): AccessEntry => ({
  exchange: { requestId: 'req-0123456789', remoteAddress: '::ffff:127.0.0.1', auth } as unknown as Exchange,
  receivedMethod: 'HEAD',
  url,
  route,
});
const response = (statusCode: number, writableEnded = true) => ({ statusCode, writableEnded }) as ServerResponse;
const flushed = () => new Promise((r) => setImmediate(r));
const withoutTime = ({ time, ...rest }: Record<string, unknown>) => (expect(time).toEqual(expect.any(Number)), rest);

describe('access log line', () => {
  it("is pre-shaped with the gateway's own logger options (its redaction censors credential fields, never the line's)", () => {
    expect(writesPreShaped(pino(loggerOptions('info'), new Writable({ write: (_c, _e, done) => done() })))).toBe(true);
    // A redaction of one of the line's own fields makes pino shape it.
    expect(writesPreShaped(pino({ redact: ['req.url'] }, new Writable({ write: (_c, _e, done) => done() })))).toBe(false);
  });

  it('the pre-shaped line is the object pino would write: same fields, order and values, escaped URL', async () => {
    const direct = capture();
    const shaped = capture({ mixin: () => ({}) }); // pino shapes this one: the object path
    const key = { current: { kind: 'key', key: { id: 'k-"odd"\\id' } } } as unknown as Exchange['auth'];
    const wallet = { current: { kind: 'wallet', sessionId: 'abcdef0123456789' } } as unknown as Exchange['auth'];
    const cases: [AccessEntry, ServerResponse, number][] = [
      [entry('/api/v1/public/markets/BTC?x="a"\\b\u0001é€😀'), response(200), 3.4],
      [entry('/api/v1/data/portfolio', key, '/api/v1/data/portfolio'), response(401), 0],
      [entry('/graphql', wallet, '/graphql'), response(500), 12.6],
      [entry('/api/v1/public/status', undefined, '/api/v1/public/status'), response(200, false), 1],
      [entry('/readyz', undefined, '/readyz'), response(503), 1],
    ];
    for (const { logger } of [direct, shaped]) {
      const log = accessLog(logger);
      for (const [e, res, ms] of cases) log(e, res, ms);
    }
    await flushed();
    expect(direct.lines).toHaveLength(cases.length);
    // pino's err serializer shapes `err` on the object path ({ type, message, stack }); the message is the same.
    const errMessage = ({ err, ...rest }: Record<string, unknown>) => ({ ...rest, ...(err ? { err: (err as { message: string }).message } : {}) });
    expect(direct.lines.map(withoutTime).map(errMessage)).toEqual(shaped.lines.map(withoutTime).map(errMessage));
    expect(direct.lines.map((l) => Object.keys(l))).toEqual(shaped.lines.map((l) => Object.keys(l)));
    expect(direct.lines.map(withoutTime)).toEqual([
      {
        level: 30,
        service: 'trading-gateway',
        requestId: 'req-0123456789',
        req: {
          method: 'HEAD',
          url: '/api/v1/public/markets/BTC?x="a"\\b\u0001é€😀',
          route: '/api/v1/public/markets/{asset}',
          remoteAddress: '::ffff:127.0.0.1',
        },
        res: { statusCode: 200 },
        responseTime: 3,
        msg: 'request completed',
      },
      expect.objectContaining({ level: 30, res: { statusCode: 401, keyId: 'k-"odd"\\id' }, responseTime: 0, msg: 'request completed' }),
      expect.objectContaining({ level: 50, res: { statusCode: 500, walletSession: 'abcdef0123456789' }, responseTime: 13, msg: 'request failed' }),
      expect.objectContaining({ level: 50, res: { statusCode: 200 }, err: { message: 'request aborted' }, msg: 'request failed' }),
      expect.objectContaining({ level: 30, req: expect.objectContaining({ route: '/readyz' }), res: { statusCode: 503 }, msg: 'request completed' }),
    ]);
  });

  it('at LOG_LEVEL=warn only failures are written; silent writes nothing', async () => {
    for (const level of ['warn', 'silent'] as const) {
      const { logger, lines } = capture({ level });
      const log = accessLog(logger);
      log(entry('/api/v1/public/markets/BTC'), response(200), 1);
      log(entry('/api/v1/public/markets/BTC'), response(502), 1);
      log(entry('/api/v1/public/markets/BTC'), response(200, false), 1);
      await flushed();
      expect(lines.map((l) => [l.level, l.msg])).toEqual(
        level === 'warn'
          ? [
              [50, 'request failed'],
              [50, 'request failed'],
            ]
          : [],
      );
    }
  });

  it('follows the logger: its bindings, a child logger, a custom time', async () => {
    const { logger, lines } = capture({ timestamp: () => ',"time":"fixed"' });
    accessLog(logger.child({ replica: 'r1' }))(entry('/x'), response(404), 2);
    await flushed();
    expect(lines).toEqual([expect.objectContaining({ time: 'fixed', service: 'trading-gateway', replica: 'r1', res: { statusCode: 404 } })]);
  });
});
