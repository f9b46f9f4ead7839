/**
 * Every knob of `npm run bench`, read once from the environment (or `--name=value` flags, which
 * win: `npm run bench -- --only=public --markets=10`). See bench/README.md.
 */
export const PARTS = ['public', 'peer', 'subs', 'money', 'profile', 'venues', 'routed'] as const;
export type Part = (typeof PARTS)[number];

const flags = new Map<string, string>(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => {
      const [name, ...rest] = a.slice(2).split('=');
      return [`BENCH_${name!.toUpperCase().replace(/-/g, '_')}`, rest.join('=')] as const;
    }),
);

function raw(name: string): string | undefined {
  const value = flags.get(name) ?? process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

function num(name: string, fallback: number, { min = 0, integer = false } = {}): number {
  const text = raw(name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value)))
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${text}`);
  return value;
}

function list(name: string, fallback: number[]): number[] {
  const text = raw(name);
  if (text === undefined) return fallback;
  if (text === 'none') return [];
  const values = text.split(',').filter(Boolean).map(Number);
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v <= 0))
    throw new Error(`${name} must be a comma-separated list of positive integers, got ${text}`);
  return values;
}

/** Which Redis replicas the public part compares with embedded mode (`none` for neither). */
function redisReplicas(name: string, fallback: ('follower' | 'leader')[]): ('follower' | 'leader')[] {
  const text = raw(name);
  if (text === undefined) return fallback;
  if (text === 'none') return [];
  const chosen = text
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of chosen) if (r !== 'follower' && r !== 'leader') throw new Error(`${name}: unknown replica '${r}' (follower, leader, or none)`);
  return chosen as ('follower' | 'leader')[];
}

function parts(): Part[] {
  const text = raw('BENCH_ONLY');
  if (text === undefined) return [...PARTS];
  const chosen = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of chosen) if (!(PARTS as readonly string[]).includes(p)) throw new Error(`BENCH_ONLY: unknown part '${p}' (known: ${PARTS.join(', ')})`);
  return chosen as Part[];
}

function modes(name: string, fallback: string[]): ('embedded' | 'redis')[] {
  const chosen = (raw(name)?.split(',') ?? fallback).map((m) => m.trim()).filter(Boolean);
  for (const m of chosen) if (m !== 'embedded' && m !== 'redis') throw new Error(`${name}: unknown mode '${m}' (embedded, redis)`);
  return chosen as ('embedded' | 'redis')[];
}

export const settings = {
  only: parts(),
  /** Catalogue sizes (GATEWAY_SIM_MARKETS). Every public route runs at the first; the scaling routes at all. */
  markets: list('BENCH_MARKETS', [10, 200, 1000]),
  /** graphql-ws subscriber counts, each on a fresh gateway. */
  subscribers: list('BENCH_SUBSCRIBERS', [100, 10_000]),
  /** SSE subscriber counts, each on a fresh gateway. */
  sseSubscribers: list('BENCH_SSE_SUBSCRIBERS', [1_000]),
  /** Client processes holding the subscribers (each holds an equal share). */
  subClients: num('BENCH_SUB_CLIENTS', 4, { min: 1, integer: true }),
  /** Market updates (one a second for BTC) measured per subscriber count. */
  subEvents: num('BENCH_SUB_EVENTS', 10, { min: 1, integer: true }),
  /** Measurement windows (of BENCH_SUB_EVENTS seconds each) on the same open subscribers; the p99 goal is judged on their median. */
  subWindows: num('BENCH_SUB_WINDOWS', 3, { min: 1, integer: true }),
  /** Seconds allowed for opening the subscribers; those not started by then are reported, not waited for. */
  subOpenDeadline: num('BENCH_SUB_OPEN_DEADLINE', 120, { min: 1 }),
  /** Public part: the Redis replicas whose markets/BTC and markets reads are compared with embedded mode's, at the first catalogue size. */
  redisReads: redisReplicas('BENCH_REDIS_READS', ['follower', 'leader']),
  /** graphql-ws subscriber counts spread over two Redis replicas (the ingest leader's updates reach the other through Redis). */
  redisSubscribers: list('BENCH_REDIS_SUBSCRIBERS', [10_000]),
  /** Peer part: only the routes with these labels (comma-separated, as printed: `history 1h×24,markets/BTC/orderbook`); every route when unset. */
  peerRoutes: raw('BENCH_PEER_ROUTES')
    ?.split(',')
    .map((r) => r.trim())
    .filter(Boolean),
  runs: num('BENCH_RUNS', 3, { min: 1, integer: true }),
  /** Seconds per autocannon run. */
  duration: num('BENCH_DURATION', 5, { min: 0.5 }),
  /** Seconds of warm-up per target before the runs. */
  warmup: num('BENCH_WARMUP', 1, { min: 0 }),
  connections: num('BENCH_CONNECTIONS', 50, { min: 1, integer: true }),
  /** Timed interactive sequences per mode (after a few untimed warm-up ones). */
  moneySequences: num('BENCH_MONEY_SEQUENCES', 300, { min: 1, integer: true }),
  moneyModes: modes('BENCH_MONEY_MODES', ['embedded', 'redis']),
  agentModes: modes('BENCH_AGENT_MODES', ['embedded']),
  /** Seconds of agent preview+execute load. */
  agentDuration: num('BENCH_AGENT_DURATION', 10, { min: 0.5 }),
  /** Concurrent agent clients (defaults to BENCH_CONNECTIONS). */
  agentClients: num('BENCH_AGENT_CLIENTS', num('BENCH_CONNECTIONS', 50, { min: 1, integer: true }), { min: 1, integer: true }),
  /** Share of agent orders also submitted a second time concurrently (must replay, never fill twice). */
  agentDuplicates: num('BENCH_AGENT_DUPLICATES', 0.05, { min: 0 }),
  /** A directory: the money part's gateways run with --cpu-prof and write their profiles there (bench/profile-top.ts reads them). */
  moneyProfileDir: raw('BENCH_MONEY_PROFILE_DIR'),
  /** Seconds of load per profiled route. */
  profileDuration: num('BENCH_PROFILE_DURATION', 8, { min: 1 }),
  /** Overrides the gateway start command (split on spaces). */
  gatewayCmd: raw('BENCH_GATEWAY_CMD'),
  /** Where the JSON result goes (a directory). */
  resultsDir: raw('BENCH_RESULTS_DIR') ?? 'bench/results',
};

export type Settings = typeof settings;
