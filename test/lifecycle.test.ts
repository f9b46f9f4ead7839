import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createServer as createTcpServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { describe, expect, it, type TestContext } from 'vitest';
import { freePort } from './support/redis.js';
import { eventually, GATEWAY_ENTRY, Replica } from './support/replicas.js';

/**
 * Every test here waits on processes of its own (own port, data directory, Redis port), so they
 * run concurrently.
 *
 * The compiled gateway as an operator runs it: `npm start`, real signals, real clients. Shutdown
 * drains: an in-flight request is answered, an SSE stream gets `complete`, a graphql-ws socket is
 * closed with 1001, then exit 0. A start that cannot succeed is one line and exit 1.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? tmpdir(),
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-life-')),
});
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

/** A compiled gateway for one test, stopped when that test ends (tests here run side by side). */
async function gateway(context: TestContext, env: Record<string, string> = {}): Promise<Replica> {
  const r = await Replica.start('life', env);
  context.onTestFinished(() => r.stop(1_000));
  return r;
}

/** A POST /graphql whose body arrives only when `finish()` is called: in flight until then. */
function slowRequest(port: number) {
  const body = JSON.stringify({ query: '{ market(asset: "BTC") { data { id } } }' });
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, 10));
  req.flushHeaders();
  return { answer, finish: () => req.end(body.slice(10)) };
}

describe.concurrent('npm start', () => {
  it('runs the compiled gateway as its own process: SIGTERM to npm leaves nothing behind and frees the port', async ({ onTestFinished }) => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...baseEnv(), PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npm.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    npm.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
    await eventually('npm start answers /readyz', async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 60_000, 200);
    const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(npm.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    // A failed check below leaves no gateway behind.
    onTestFinished(() => {
      for (const child of children) {
        const pid = Number.parseInt(child, 10);
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
      npm.kill('SIGKILL');
    });
    // npm's script shell execs node: its only child is the gateway itself, not `sh` or tsx.
    expect(children).toHaveLength(1);
    // (with npm start's node flags: its young-generation size)
    expect(children[0]).toMatch(/ node --max-semi-space-size=32 dist\/src\/main\.js$/);
    const gatewayPid = Number.parseInt(children[0]!, 10);
    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    await eventually('the gateway process is gone', async () => !alive(gatewayPid), 5_000);
    expect(await portFree(port)).toBe(true);
    expect(out).toMatch(/"msg":"stopped"/);
  }, 90_000);
});

describe.concurrent('graceful shutdown', () => {
  it('answers the in-flight request, completes the SSE stream, closes graphql-ws with 1001, then exits 0', async (context) => {
    const gw = await gateway(context, { SHUTDOWN_DRAIN_MS: '10000' });
    // SSE subscription: read until it ends.
    const sse = await fetch(`${gw.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { freshnessChanged(asset: "BTC") { marketId } }' }),
    });
    expect(sse.status).toBe(200);
    const sseText = (async () => {
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of sse.body!) text += decoder.decode(chunk as Uint8Array);
      return text;
    })();
    // graphql-ws subscription: note the close code.
    const closeCode = new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${gw.port}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe(
        { query: 'subscription { freshnessChanged(asset: "ETH") { marketId } }' },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    await eventually('both subscriptions are open', async () => (await (await gw.get('/metrics')).text()).includes('gateway_graphql_ws_sockets_open 1'), 5_000);
    const slow = slowRequest(gw.port);
    await new Promise((r) => setTimeout(r, 200));

    const t0 = Date.now();
    gw.kill('SIGTERM');
    await eventually('the server stops accepting', async () => portFree(gw.port), 5_000, 20);
    expect(await closeCode).toBe(1001);
    const text = await sseText;
    expect(text).toContain('event: next');
    expect(text.trimEnd().endsWith('event: complete\ndata:')).toBe(true);
    // The slow request is still in flight and is answered in full.
    expect(gw.alive).toBe(true);
    slow.finish();
    const answered = await slow.answer;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({ data: { market: { data: { id: 'BTC-PERP' } } } });
    expect(await gw.exited).toBe(0);
    const stopped = gw.logs(/^stopped$/)[0];
    expect(stopped).toMatchObject({ drained: true });
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 60_000);

  it('cuts connections still open after SHUTDOWN_DRAIN_MS and exits 0', async (context) => {
    const bounded = await gateway(context, { SHUTDOWN_DRAIN_MS: '500' });
    const stuck = slowRequest(bounded.port);
    stuck.answer.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    bounded.kill('SIGTERM');
    expect(await bounded.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(bounded.logs(/^stopped$/)[0]).toMatchObject({ drained: false });
  }, 60_000);
});

/** Runs the compiled gateway to its exit; returns the exit code, stderr and time taken. */
function failingStart(env: Record<string, string>) {
  const t0 = Date.now();
  const proc = spawn(process.execPath, [GATEWAY_ENTRY], { cwd: ROOT, env: { ...baseEnv(), LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  return new Promise<{ code: number | null; stderr: string; stdout: string; ms: number }>((resolve) =>
    proc.once('exit', (code) => resolve({ code, stderr, stdout, ms: Date.now() - t0 })),
  );
}

describe.concurrent('a start that cannot succeed', () => {
  it.each([
    ['a bad PORT', { PORT: 'eighty' }, /^gateway: Invalid configuration: PORT: /],
    ['a bad REDIS_URL', { REDIS_URL: 'http://localhost:6379' }, /^gateway: Invalid configuration: REDIS_URL: expected redis:\/\/host:port/],
    ['an unknown fault source', { GATEWAY_SIM_FAULTS: 'paper-nope=down' }, /^gateway: GATEWAY_SIM_FAULTS: unknown source 'paper-nope' \(known: paper-perps, /],
    ['a malformed bootstrap file', { GATEWAY_BOOTSTRAP: join(ROOT, 'package.json') }, /^gateway: GATEWAY_BOOTSTRAP .*package\.json: accounts: /],
    ['a missing bootstrap file', { GATEWAY_BOOTSTRAP: '/nonexistent/boot.json' }, /^gateway: GATEWAY_BOOTSTRAP \/nonexistent\/boot\.json: cannot read JSON/],
    ['a malformed controls file', { GATEWAY_CONTROLS: join(ROOT, 'package.json') }, /^gateway: GATEWAY_CONTROLS .*package\.json: \(root\): Unrecognized keys/],
    [
      'a data directory that cannot be one',
      { GATEWAY_DATA_DIR: join(ROOT, 'package.json', 'data') },
      /^gateway: GATEWAY_DATA_DIR .*package\.json\/data: cannot use it as the data directory \(ENOTDIR/,
    ],
    ['a short operator token', { GATEWAY_OPERATOR_TOKEN: 'short' }, /^gateway: Invalid configuration: GATEWAY_OPERATOR_TOKEN: must be at least 24 characters/],
  ])('%s: one line naming the setting, exit 1, no stack', async (_name, env, line) => {
    const { code, stderr } = await failingStart({ PORT: '0', ...env });
    expect(code).toBe(1);
    expect(stderr).toMatch(line);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a port in use: one line naming PORT, exit 1, the demo key not spent', async () => {
    const holder = createTcpServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, stderr, stdout } = await failingStart({ PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(`gateway: PORT ${port}: 127.0.0.1:${port} is already in use by another process; stop it or set PORT to a free port\n`);
      expect(stdout).not.toContain('Demo API key');
    } finally {
      holder.close();
    }
  });
});

// Alone, not beside the others: they are about time (a second signal within a second of the first;
// a start that gives up on Redis within its timeout), which a machine busy with the tests above stretches.
describe('timing, alone', () => {
  it('an unreachable Redis: reported within REDIS_CONNECT_TIMEOUT_MS, exit 1', async () => {
    const port = await freePort();
    const { code, stderr, ms } = await failingStart({ PORT: '0', REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_CONNECT_TIMEOUT_MS: '1000' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^gateway: REDIS_URL: Redis unreachable after 1000 ms \(.*ECONNREFUSED.*\)\n$/);
    expect(ms).toBeLessThan(8_000);
  });

  it('a second signal while draining exits at once with 1', async (context) => {
    const patient = await gateway(context, { SHUTDOWN_DRAIN_MS: '60000' });
    const held = slowRequest(patient.port);
    held.answer.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    patient.kill('SIGTERM');
    await eventually('draining', async () => patient.logs(/^shutting down/).length > 0, 5_000, 10);
    // The same signal again at once is taken as one delivery (Ctrl-C reaches node from the terminal and from npm).
    patient.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(patient.alive).toBe(true);
    patient.kill('SIGTERM');
    expect(await patient.exited).toBe(1);
    expect(patient.logs(/second signal/)).toHaveLength(1);
  }, 60_000);
});
