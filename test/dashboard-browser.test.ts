import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

// The dashboard end to end: a real gateway, its built assets, Debian's chromium driven by playwright-core.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const MARKET = 'BTC-PERP';
const SOURCE = 'paper-perps';

let gw: TestGateway;
let keys: BootstrapKeys;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const cellText = (market: string, selector: string) =>
  page.evaluate(([m, s]) => document.querySelector(`tr[data-market="${m}"] ${s}`)?.textContent ?? null, [market, selector] as const);

/** Resolves once the market's badge shows `state`; rejects after `timeout` ms. */
const badgeBecomes = (state: 'live' | 'stale', timeout: number) =>
  page.waitForFunction(([m, s]) => document.querySelector<HTMLElement>(`tr[data-market="${m}"] .badge`)?.dataset.state === s, [MARKET, state] as const, {
    timeout,
  });

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('dashboard in headless Chromium', () => {
  beforeAll(async () => {
    keys = writeBootstrap(TEST_WALLET.address);
    // Development, so GraphiQL is on (its page is checked below); a weekday mid-session, so equities trade.
    gw = await startGateway({ env: 'development', bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('requestfailed', (req) => problems.push(`${req.url()} ${req.failure()?.errorText}`));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('serves the built page and its assets with content types, caching and a same-origin CSP', async () => {
    const redirect = await gw.get('/dashboard', { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/dashboard/');
    const html = await gw.get('/dashboard/');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe|https?:/);
    const body = await html.text();
    // Nothing is loaded from elsewhere: every script, style and icon is the gateway's own.
    expect(body).not.toMatch(/(src=|<link[^>]*href=)"(https?:)?\/\//);
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(body)?.[1];
    expect(script).toBeDefined();
    const asset = await gw.get(script!);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await gw.get('/dashboard/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'route_not_found' });
    // An encoded ../ must not leave dist/dashboard (fetch itself would resolve a literal one).
    expect((await gw.get('/dashboard/..%2F..%2Fpackage.json')).status).toBe(404);
    expect((await gw.get('/dashboard/%2e%2e/%2e%2e/package.json')).status).toBe(404);
  });

  it('loads, moves a price without a reload, flips a badge stale when its source goes down and back', async () => {
    const loadStarted = performance.now();
    await page.goto(`${gw.baseUrl}/dashboard/`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 20_000 });
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#connection')?.dataset.state === 'live', undefined, { timeout: 20_000 });
    const readyMs = performance.now() - loadStarted;
    expect(await page.locator('#markets tbody tr').count()).toBeGreaterThanOrEqual(10);
    expect(await page.locator('#candles canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('#depth canvas').count()).toBeGreaterThan(0);
    await badgeBecomes('live', 5_000);

    // Drive ingest until the price in the table moves, without reloading the page.
    const before = await cellText(MARKET, '.price');
    let moved = false;
    for (let attempt = 0; attempt < 30 && !moved; attempt++) {
      gw.clock.advance(1_000);
      await gw.app.services.ingest.pollAll();
      moved = await page
        .waitForFunction(([m, p]) => document.querySelector(`tr[data-market="${m}"] .price`)?.textContent !== p, [MARKET, before] as const, { timeout: 1_000 })
        .then(
          () => true,
          () => false,
        );
    }
    expect(moved).toBe(true);

    const downAt = performance.now();
    await gw.setFault(SOURCE, 'down');
    await badgeBecomes('stale', 5_000);
    const staleAfterMs = performance.now() - downAt;
    expect(await cellText(MARKET, '.badge')).toContain('source_down');
    expect(await page.evaluate((s) => document.querySelector<HTMLElement>(`li[data-source="${s}"] .badge`)?.textContent, SOURCE)).toBe('down');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-source-down.png'), fullPage: true });

    await gw.setFault(SOURCE, 'none');
    await badgeBecomes('live', 5_000);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    console.log(
      `dashboard: ready (markets, candles, depth, sockets) ${Math.round(readyMs)} ms after navigation; badge stale ${Math.round(staleAfterMs)} ms after the source went down; screenshots in ${ARTIFACTS}`,
    );
    expect(problems).toEqual([]);
  }, 90_000);

  it("with an API key pasted in, follows the viewer's executions live", async () => {
    const wallet = await walletSession(gw);
    const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
      apiKeyId: 'k-full',
      protocols: ['paper-perps'],
      actions: ['place_order'],
      assets: ['BTC'],
      maxOrderNotional: '20000',
      maxPeriodNotional: '100000',
      periodSeconds: 86_400,
      expiresAt: new Date(gw.clock.now() + 30 * 86_400_000).toISOString(),
    });
    expect(session.status).toBe(200);
    await page.fill('#api-key', keys.full);
    await page.click('#key-form button');
    await page.waitForFunction(() => document.querySelector('#executions-note')?.textContent?.startsWith('Following'), undefined, { timeout: 10_000 });
    // The viewer query names the key's account.
    expect(await page.textContent('#executions-note')).toBe('Following the executions of acct-1 live.');
    expect(await page.locator('#executions tbody tr').count()).toBe(0);

    const order = perpOrder('dash-1');
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const executed = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    const body = await executed.json();
    expect(executed.status, JSON.stringify(body)).toBe(200);
    const row = page.locator(`tr[data-execution="${body.executionId}"] .state`);
    await row.waitFor({ timeout: 10_000 });
    await page.waitForFunction(
      ([id, state]) => document.querySelector(`tr[data-execution="${id}"] .state`)?.textContent === state,
      [body.executionId, body.state] as const,
      { timeout: 10_000 },
    );
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-executions.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);

  it('serves GraphiQL from its own page: it renders with nothing fetched from another origin', async () => {
    const graphiql = await browser.newPage();
    const foreign: string[] = [];
    graphiql.on(
      'request',
      (req) => !req.url().startsWith(gw.baseUrl) && !req.url().startsWith('data:') && !req.url().startsWith('blob:') && foreign.push(req.url()),
    );
    const errors: string[] = [];
    graphiql.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    graphiql.on('pageerror', (err) => errors.push(err.message));
    await graphiql.goto(`${gw.baseUrl}/graphql`);
    await graphiql.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    await graphiql.locator('.graphiql-editor').first().waitFor({ timeout: 30_000 });
    await graphiql.screenshot({ path: join(ARTIFACTS, 'graphiql.png') });
    expect(foreign).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy/.test(e))).toEqual([]);
    await graphiql.close();
  }, 60_000);
});
