/**
 * Part 3: the money path, embedded and Redis mode.
 *
 * - Interactive latency: preview → create approval → decide (a fresh EIP-4361 signature) →
 *   execute, one sequence at a time. Only the four HTTP round trips are timed; the nonce is
 *   fetched and the message signed (viem) outside the timed window.
 * - Agent throughput: a wallet session activates an agent session for an API key; many
 *   concurrent clients preview + execute distinct market orders with the key; some orders are
 *   also submitted twice at once. Afterwards: every referenceId has exactly one execution, no
 *   execution is shared, and the ledger moved by exactly the sum of the recorded fills.
 */
import { Decimal } from 'decimal.js';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { GatewayProcess, PrivateRedis, SIWE_DOMAIN } from './lib/gateway.js';
import { JsonClient } from './lib/http.js';
import { cpuMicros } from './lib/proc.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, sleep, spread, type Spread } from './lib/stats.js';

type Mode = 'embedded' | 'redis';

// Ledger amounts are exact decimals (8 places on balances of 1e8): no rounding, no exponent notation.
Decimal.set({ precision: 40, toExpNeg: -40, toExpPos: 40 });

/** Small perpetual orders, each filled from the first level of the book (so its notional is price × amount, exactly). */
const ORDERS = [
  { token: 'BTC', amount: '0.001' },
  { token: 'ETH', amount: '0.01' },
  { token: 'SOL', amount: '0.1' },
] as const;
/** paper-perps taker fee (README: fees in the preview quote); checked against every recorded fill. */
const PERP_FEE_RATE = new Decimal('0.0005');
const WARMUP_SEQUENCES = 10;

const perpOrder = (referenceId: string, i: number, side: 'buy' | 'sell' = 'buy') => {
  const o = ORDERS[i % ORDERS.length]!;
  return { protocol: 'paper-perps', action: 'place_order', assetIn: { token: o.token, amount: o.amount }, metadata: { side, type: 'market' }, referenceId };
};

async function nonce(client: JsonClient): Promise<string> {
  return (await client.expect(200, 'POST', '/api/v1/auth/siwe/nonce')).body.nonce as string;
}

async function sign(
  wallet: PrivateKeyAccount,
  nonceValue: string,
  request?: { statement: string; resources: string[] },
): Promise<{ message: string; signature: string }> {
  const message = createSiweMessage({
    domain: SIWE_DOMAIN,
    address: wallet.address,
    uri: `https://${SIWE_DOMAIN}`,
    version: '1',
    chainId: 1,
    nonce: nonceValue,
    issuedAt: new Date(),
    ...(request ? { statement: request.statement, resources: request.resources } : {}),
  });
  return { message, signature: await wallet.signMessage({ message }) };
}

/** A wallet session (sign-in with Ethereum) for the bench account's wallet. */
export async function walletSession(client: JsonClient, wallet: PrivateKeyAccount): Promise<string> {
  const signed = await sign(wallet, await nonce(client));
  return (await client.expect(200, 'POST', '/api/v1/auth/siwe/verify', undefined, signed)).body.sessionToken as string;
}

export interface InteractiveResult {
  mode: Mode;
  sequences: number;
  /** ms, the four round trips summed, per sequence. */
  total: Spread;
  steps: Record<'preview' | 'approval' | 'decide' | 'execute', Spread>;
  /**
   * Gateway CPU (all its threads) per timed sequence, the untimed nonce request included, less what
   * the gateway spends idle (market-data ingestion) over the same time: less load-sensitive than the latencies.
   */
  gatewayCpuUsPerSequence: number;
  /** Gateway CPU µs per ms with no request, measured after the warm-up sequences. */
  idleUsPerMs: number;
  failures: string[];
}

/** The gateway's CPU µs per ms while no request is made (its market-data ingestion), over 2 s. */
async function idleCpu(gateway: GatewayProcess): Promise<number> {
  const [cpu, at] = [cpuMicros(gateway.pid), performance.now()];
  await sleep(2_000);
  return (cpuMicros(gateway.pid) - cpu) / (performance.now() - at);
}

async function interactive(settings: Settings, mode: Mode, gateway: GatewayProcess, client: JsonClient, session: string): Promise<InteractiveResult> {
  const wallet = gateway.identity.wallet;
  const totals: number[] = [];
  const steps = { preview: [] as number[], approval: [] as number[], decide: [] as number[], execute: [] as number[] };
  const failures: string[] = [];
  let cpuBefore = Number.NaN;
  let startedAt = 0;
  let idleUsPerMs = 0;
  for (let i = 0; i < WARMUP_SEQUENCES + settings.moneySequences; i++) {
    const order = perpOrder(`int-${mode}-${i}`, i, i % 2 ? 'sell' : 'buy');
    if (i === WARMUP_SEQUENCES) {
      // Once warm: what the gateway spends with no request (market-data ingestion), then the timed sequences.
      idleUsPerMs = await idleCpu(gateway);
      [cpuBefore, startedAt] = [cpuMicros(gateway.pid), performance.now()];
    }
    try {
      const n = await nonce(client); // untimed: part of signing
      const preview = await client.expect(200, 'POST', '/api/v1/execute/preview', session, order);
      const approval = await client.expect(200, 'POST', '/api/v1/execute/approvals', session, order);
      const signed = await sign(wallet, n, approval.body.approveRequest); // untimed: the wallet signs
      const decide = await client.expect(200, 'PATCH', `/api/service/ai/approvals/${approval.body.approvalId}`, session, { decision: 'approve', ...signed });
      const execute = await client.expect(200, 'POST', '/api/v1/execute', session, { ...order, approvalId: approval.body.approvalId });
      if (execute.body.state !== 'filled') throw new Error(`execution ${execute.body.executionId} is ${execute.body.state}: ${execute.body.reason}`);
      if (i < WARMUP_SEQUENCES) continue;
      steps.preview.push(preview.ms);
      steps.approval.push(approval.ms);
      steps.decide.push(decide.ms);
      steps.execute.push(execute.ms);
      totals.push(preview.ms + approval.ms + decide.ms + execute.ms);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
      if (failures.length > 10) throw new Error(`interactive sequences keep failing (${mode}): ${failures.slice(0, 3).join(' | ')}`, { cause: err });
    }
  }
  const result: InteractiveResult = {
    mode,
    sequences: totals.length,
    total: spread(totals),
    steps: { preview: spread(steps.preview), approval: spread(steps.approval), decide: spread(steps.decide), execute: spread(steps.execute) },
    idleUsPerMs,
    gatewayCpuUsPerSequence: (cpuMicros(gateway.pid) - cpuBefore - idleUsPerMs * (performance.now() - startedAt)) / Math.max(1, settings.moneySequences),
    failures,
  };
  log(
    `money ${mode}: ${totals.length} interactive sequences, sum of 4 round trips p50 ${fmt(result.total.p50, 1)} p99 ${fmt(result.total.p99, 1)} ms, ` +
      `${fmt(result.gatewayCpuUsPerSequence)} µs gateway CPU per sequence above idle (idle ${fmt(result.idleUsPerMs / 10, 1)} % of a core; ${failures.length} failed)`,
  );
  return result;
}

export interface AgentResult {
  mode: Mode;
  clients: number;
  seconds: number;
  executions: number;
  executionsPerSecond: number;
  /** Gateway CPU (all its threads) per execution, less its idle CPU (market-data ingestion) over the run. */
  gatewayCpuUsPerExecution: number;
  /** The load generator's (this process's) CPU over the run, as a share of one core. */
  clientCpu: number;
  /** Round trip of execute (after its preview), ms. */
  executeLatency: Spread;
  refused: Record<string, number>;
  duplicatePairs: number;
  /** Second submissions answered as a replay of the first (Idempotent-Replayed) or refused as in progress. */
  duplicatesReplayed: number;
  duplicatesRefused: number;
  check: {
    referencesChecked: number;
    /** A referenceId whose execution is not the one its execute call returned, or missing. */
    referenceMismatches: number;
    /** An executionId returned for two referenceIds, or two executions for one referenceId. */
    doubleExecutions: number;
    /** Ledger keys whose change differs from the sum of the recorded fills. */
    ledgerMismatches: { token: string; expected: string; actual: string }[];
    ledgerKeys: number;
    /** Whether every fill was one book level, so the expected ledger change is exact. */
    exact: boolean;
  };
}

async function balances(client: JsonClient, key: string): Promise<Map<string, Decimal>> {
  const res = await client.expect(200, 'GET', '/api/v1/data/portfolio', key);
  return new Map((res.body.data.balances as { token: string; amount: string }[]).map((b) => [b.token, new Decimal(b.amount)]));
}

async function agent(settings: Settings, mode: Mode, gateway: GatewayProcess, client: JsonClient, session: string, idleUsPerMs: number): Promise<AgentResult> {
  const key = gateway.identity.agentKey;
  await client.expect(200, 'POST', '/api/v1/agent-sessions', session, {
    apiKeyId: gateway.identity.agentKeyId,
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets: ORDERS.map((o) => o.token),
    maxOrderNotional: '1000000',
    maxPeriodNotional: '1000000000',
    periodSeconds: 86_400,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const before = await balances(client, key);
  const executed = new Map<string, string>(); // referenceId → executionId returned by the first execute
  const attempted: string[] = [];
  const refused: Record<string, number> = {};
  const latencies: number[] = [];
  let duplicatePairs = 0;
  let duplicatesReplayed = 0;
  let duplicatesRefused = 0;
  let doubleExecutions = 0;
  let counter = 0;
  const every = settings.agentDuplicates > 0 ? Math.max(1, Math.round(1 / settings.agentDuplicates)) : 0;
  const refuse = (why: string) => (refused[why] = (refused[why] ?? 0) + 1);

  const started = Date.now();
  const cpuBefore = cpuMicros(gateway.pid);
  const clientBefore = process.cpuUsage();
  const until = started + settings.agentDuration * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const i = counter++;
      const ref = `agent-${mode}-${i}`;
      const order = perpOrder(ref, i, i % 2 ? 'sell' : 'buy');
      attempted.push(ref);
      const preview = await client.call('POST', '/api/v1/execute/preview', key, order);
      if (preview.status !== 200) {
        refuse(`preview ${preview.status} ${preview.body?.code ?? ''}`);
        continue;
      }
      const twice = every > 0 && i % every === 0;
      const calls = await Promise.all(Array.from({ length: twice ? 2 : 1 }, () => client.call('POST', '/api/v1/execute', key, order)));
      const fresh = calls.filter((c) => c.status === 200 && c.headers['idempotent-replayed'] !== 'true');
      if (twice) {
        duplicatePairs++;
        duplicatesReplayed += calls.filter((c) => c.status === 200 && c.headers['idempotent-replayed'] === 'true').length;
        duplicatesRefused += calls.filter((c) => c.status === 409 && c.body?.code === 'IDEMPOTENCY_CONFLICT').length;
      }
      if (fresh.length > 1) doubleExecutions++;
      const first = fresh[0];
      if (!first) {
        const c = calls.find((x) => x.status !== 200) ?? calls[0]!;
        if (c.status !== 200) refuse(`execute ${c.status} ${c.body?.code ?? ''}`);
        continue;
      }
      latencies.push(first.ms);
      if (first.body.state === 'filled') executed.set(ref, first.body.executionId as string);
      else refuse(`execution ${first.body.state}`);
    }
  };
  await Promise.all(Array.from({ length: settings.agentClients }, worker));
  const seconds = (Date.now() - started) / 1000;
  const cpu = cpuMicros(gateway.pid) - cpuBefore - idleUsPerMs * seconds * 1000;
  const clientUsage = process.cpuUsage(clientBefore);
  const clientCpu = (clientUsage.user + clientUsage.system) / (seconds * 1e6);

  // Afterwards: every referenceId has exactly one execution, and the ledger moved by the fills.
  const after = await balances(client, key);
  const byExecution = new Map<string, string>();
  const expected = new Map<string, Decimal>();
  const add = (token: string, amount: Decimal) => expected.set(token, (expected.get(token) ?? new Decimal(0)).plus(amount));
  let referenceMismatches = 0;
  let exact = true;
  let next = 0;
  const checker = async () => {
    while (next < attempted.length) {
      const ref = attempted[next++]!;
      const res = await client.call('GET', `/api/v1/execute/references/${encodeURIComponent(ref)}`, key);
      const returned = executed.get(ref);
      if (res.status === 404) {
        if (returned) referenceMismatches++;
        continue;
      }
      if (res.status !== 200) throw new Error(`GET references/${ref}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      const e = res.body as {
        executionId: string;
        state: string;
        fill: { price: string; filledAmount: string; notional: string; fee: string } | null;
        history?: unknown;
      };
      if (returned !== undefined && e.executionId !== returned) referenceMismatches++;
      if (byExecution.has(e.executionId)) doubleExecutions++;
      byExecution.set(e.executionId, ref);
      if (!e.fill || (e.state !== 'filled' && e.state !== 'partially_filled')) continue;
      // Signed changes of a perpetual fill (README): USDC −(margin + fee), margin +notional, position ±amount.
      const i = Number(ref.slice(ref.lastIndexOf('-') + 1));
      const o = ORDERS[i % ORDERS.length]!;
      const market = `${o.token}-PERP`;
      const sign = i % 2 ? -1 : 1;
      const filled = new Decimal(e.fill.filledAmount);
      const notional = new Decimal(e.fill.price).mul(filled);
      const fee = notional.mul(PERP_FEE_RATE);
      if (notional.toFixed(2) !== new Decimal(e.fill.notional).toFixed(2) || fee.toFixed(6) !== new Decimal(e.fill.fee).toFixed(6)) exact = false;
      add('USDC', notional.plus(fee).neg());
      add(`margin:${market}`, notional);
      add(`position:${market}`, filled.mul(sign));
    }
  };
  await Promise.all(Array.from({ length: 16 }, checker));
  const ledgerMismatches: AgentResult['check']['ledgerMismatches'] = [];
  for (const token of new Set([...expected.keys(), ...after.keys()])) {
    const actual = (after.get(token) ?? new Decimal(0)).minus(before.get(token) ?? new Decimal(0));
    const want = expected.get(token) ?? new Decimal(0);
    if (!actual.eq(want)) ledgerMismatches.push({ token, expected: want.toString(), actual: actual.toString() });
  }
  const result: AgentResult = {
    mode,
    clients: settings.agentClients,
    seconds,
    executions: executed.size,
    executionsPerSecond: executed.size / seconds,
    gatewayCpuUsPerExecution: cpu / Math.max(1, executed.size),
    clientCpu,
    executeLatency: spread(latencies),
    refused,
    duplicatePairs,
    duplicatesReplayed,
    duplicatesRefused,
    check: { referencesChecked: attempted.length, referenceMismatches, doubleExecutions, ledgerMismatches, ledgerKeys: expected.size, exact },
  };
  log(
    `money ${mode}: agent ${result.executions} executions in ${fmt(seconds, 1)} s = ${fmt(result.executionsPerSecond)}/s, refused ${JSON.stringify(refused)}; ` +
      `${duplicatePairs} double submissions (${duplicatesReplayed} replayed, ${duplicatesRefused} in progress); ` +
      `check: ${referenceMismatches} reference mismatches, ${doubleExecutions} double executions, ${ledgerMismatches.length} ledger mismatches${exact ? '' : ' (inexact: a fill walked several levels)'}`,
  );
  return result;
}

export interface MoneyResult {
  interactive: InteractiveResult[];
  agent: AgentResult[];
}

export async function moneyPath(settings: Settings, command: string[]): Promise<MoneyResult> {
  const result: MoneyResult = { interactive: [], agent: [] };
  for (const mode of new Set([...settings.moneyModes, ...settings.agentModes])) {
    const redis = mode === 'redis' ? await PrivateRedis.start() : undefined;
    let gateway: GatewayProcess | undefined;
    try {
      gateway = await GatewayProcess.start({
        command,
        ...(settings.moneyProfileDir ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${settings.moneyProfileDir}`] } : {}),
        markets: settings.markets[0]!,
        ...(redis ? { redisUrl: redis.url } : {}),
      });
      const client = new JsonClient(gateway.url, Math.max(64, settings.agentClients * 2));
      try {
        const session = await walletSession(client, gateway.identity.wallet);
        const interactiveRun = settings.moneyModes.includes(mode) ? await interactive(settings, mode, gateway, client, session) : undefined;
        if (interactiveRun) result.interactive.push(interactiveRun);
        if (settings.agentModes.includes(mode))
          result.agent.push(await agent(settings, mode, gateway, client, session, interactiveRun?.idleUsPerMs ?? (await idleCpu(gateway))));
      } finally {
        client.close();
      }
    } finally {
      await gateway?.stop();
      await redis?.stop();
    }
  }
  return result;
}

const LATENCY_GOAL_MS: Record<Mode, number> = { embedded: 20, redis: 40 };
const THROUGHPUT_GOAL = 500;

export function moneyRows(result: MoneyResult): Row[] {
  const rows: Row[] = [];
  for (const r of result.interactive) {
    const s = r.steps;
    rows.push({
      area: `money ${r.mode}`,
      what: `preview→approval→decide→execute, ${r.sequences} sequences`,
      figure:
        `sum p50 ${fmt(r.total.p50, 1)} / p99 ${fmt(r.total.p99, 1)} ms (p50 ${fmt(s.preview.p50, 1)} + ${fmt(s.approval.p50, 1)} + ${fmt(s.decide.p50, 1)} + ${fmt(s.execute.p50, 1)}); ` +
        `${fmt(r.gatewayCpuUsPerSequence)} µs gateway CPU per sequence` +
        (r.failures.length ? `; ${r.failures.length} failed` : ''),
      goal: `p99 ≤ ${LATENCY_GOAL_MS[r.mode]} ms`,
      pass: r.sequences === 0 ? null : r.total.p99 <= LATENCY_GOAL_MS[r.mode] && r.failures.length === 0,
    });
  }
  for (const r of result.agent) {
    const c = r.check;
    const refusals = Object.entries(r.refused)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    rows.push({
      area: `money ${r.mode}`,
      what: `agent preview+execute, ${r.clients} clients, ${fmt(r.seconds)} s`,
      figure: `${fmt(r.executionsPerSecond)} executions/s (${r.executions}); execute p50 ${fmt(r.executeLatency.p50, 1)} / p99 ${fmt(r.executeLatency.p99, 1)} ms; ${fmt(r.gatewayCpuUsPerExecution)} µs gateway CPU/execution; client ${fmt(r.clientCpu * 100)} % CPU${refusals ? `; refused: ${refusals}` : ''}`,
      ...(r.mode === 'embedded' ? { goal: `≥ ${THROUGHPUT_GOAL}/s`, pass: r.executionsPerSecond >= THROUGHPUT_GOAL } : {}),
    });
    rows.push({
      area: `money ${r.mode}`,
      what: 'no double fill: references and ledger',
      figure:
        `${c.referencesChecked} referenceIds: ${c.referenceMismatches} mismatched, ${c.doubleExecutions} double executions; ${r.duplicatePairs} double submissions ` +
        `(${r.duplicatesReplayed} replayed, ${r.duplicatesRefused} in progress); ledger ${c.ledgerKeys - c.ledgerMismatches.length}/${c.ledgerKeys} keys ${c.exact ? 'exactly' : 'within fill rounding'} = Σ fills`,
      goal: 'zero',
      pass: c.referenceMismatches === 0 && c.doubleExecutions === 0 && c.ledgerMismatches.length === 0 && c.exact,
    });
  }
  return rows;
}
