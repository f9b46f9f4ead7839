import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Replica } from './support/replicas.js';

/**
 * The access log of the compiled gateway (`node dist/src/main.js`, LOG_LEVEL=info, the default
 * asynchronous stdout) loses no line on SIGTERM: every request answered before the signal has its
 * `request completed` line on stdout, once, before `stopped`.
 */
describe('access log on SIGTERM', () => {
  it('N requests answered, SIGTERM at once: exactly N access lines, all before the process stopped', async () => {
    const gw = await Replica.start('access-sigterm', { RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' });
    const closed = once(gw.proc, 'close'); // stdout read to its end
    const n = 1_000;
    const ids = Array.from({ length: n }, (_, i) => `sigterm-line-${String(i).padStart(5, '0')}`);
    const paths = ['/api/v1/public/markets/BTC', '/api/v1/public/status', '/api/v1/public/markets?x="quoted\\"'];
    // As sent on the wire (fetch percent-encodes the quotes, not the backslash, which the log line must escape).
    const sent = paths.map((p) => {
      const u = new URL(p, 'http://h');
      return u.pathname + u.search;
    });
    try {
      for (let next = 0; next < n;) {
        // 25 at a time on kept-alive connections.
        const batch = ids.slice(next, (next += 25));
        const statuses = await Promise.all(
          batch.map(async (id, i) => {
            const res = await gw.get(paths[i % paths.length]!, { headers: { 'x-request-id': id } });
            await res.arrayBuffer();
            return res.status;
          }),
        );
        expect(statuses.every((s) => s === 200)).toBe(true);
      }
      gw.kill('SIGTERM');
      expect(await gw.exited).toBe(0);
      await closed;
    } finally {
      gw.kill();
    }
    const access = gw.logs(/^request (completed|failed)$/).filter((l) => String(l.requestId).startsWith('sigterm-line-'));
    expect(access).toHaveLength(n);
    expect(new Set(access.map((l) => l.requestId))).toEqual(new Set(ids));
    for (const line of access) {
      expect(line).toMatchObject({ level: 30, msg: 'request completed', service: 'trading-gateway', res: { statusCode: 200 } });
      expect(line.time).toEqual(expect.any(Number));
      expect(line.responseTime).toEqual(expect.any(Number));
      const req = line.req as Record<string, unknown>;
      expect(sent).toContain(req.url);
      expect(req).toMatchObject({ method: 'GET', remoteAddress: '127.0.0.1' });
      expect(req.route).toMatch(/^\/api\/v1\/public\/(markets\/\{asset\}|status|markets)$/);
    }
    expect(access.some((l) => (l.req as { url: string }).url.endsWith('%22quoted\\%22'))).toBe(true);
    // Every access line was written before the gateway said it stopped.
    const order = gw.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; requestId?: string });
    const lastAccess = order.map((l) => l.requestId?.startsWith('sigterm-line-') === true).lastIndexOf(true);
    expect(lastAccess).toBeGreaterThan(-1);
    expect(order.findIndex((l) => l.msg === 'stopped')).toBeGreaterThan(lastAccess);
  }, 60_000);
});
