import './style.css';
import { CandleChart, DepthChart } from './charts.js';
import { GatewayClient } from './client.js';
import {
  ExecutionUpdated,
  FreshnessChanged,
  MarketHistoryQuery,
  MarketsQuery,
  MarketUpdated,
  OrderBookQuery,
  OrderBookUpdated,
  ViewerQuery,
  type ExecutionRow,
  type Freshness,
  type MarketRow,
  type SourceStatus,
} from './operations.js';
import { executionRow, marketRow, setBadge, sourceItem } from './render.js';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

const markets = new Map<string, MarketRow>();
const sources = new Map<string, { name: string; status: SourceStatus }>();
const executions = new Map<string, ExecutionRow>();
let selected: string | undefined;
let stopDetail: (() => void) | undefined;
let keyed: GatewayClient | undefined;

const candleChart = new CandleChart($('#candles'));
const depthChart = new DepthChart($('#depth'));
let connectedBefore = false;
const client = new GatewayClient(undefined, (state) => {
  setBadge($('#connection'), state === 'connected' ? 'live' : 'stale', state);
  // Events sent while the socket was down are lost: read the current state again after a reconnect.
  if (state === 'connected' && connectedBefore) void refresh();
  if (state === 'connected') connectedBefore = true;
});

async function refresh(): Promise<void> {
  const current = await client.query(MarketsQuery);
  for (const p of current.protocols.data) sources.set(p.id, { name: p.name, status: p.sourceStatus });
  for (const m of current.markets.data) markets.set(m.id, m);
  renderMarkets();
  renderSources();
}

function renderMarkets(): void {
  const body = $('#markets tbody');
  body.replaceChildren(...[...markets.values()].map((m) => marketRow(m, m.id === selected, () => void select(m.id))));
}

function renderSources(): void {
  $('#sources').replaceChildren(...[...sources].map(([id, s]) => sourceItem(id, s.name, s.status)));
}

function applyFreshness(marketId: string, freshness: Freshness): void {
  const market = markets.get(marketId);
  if (!market) return;
  market.freshness = freshness;
  const source = sources.get(market.protocol);
  if (source) source.status = freshness.sourceStatus;
  const row = document.querySelector<HTMLTableRowElement>(`tr[data-market="${CSS.escape(marketId)}"]`);
  const badge = row?.querySelector<HTMLElement>('.badge');
  if (badge) setBadge(badge, freshness.stale ? 'stale' : 'live', freshness.stale ? `stale (${freshness.staleReason ?? 'unknown'})` : 'live');
  renderSources();
}

function applyMarket(update: MarketRow): void {
  markets.set(update.id, update);
  const row = document.querySelector<HTMLTableRowElement>(`tr[data-market="${CSS.escape(update.id)}"]`);
  if (row) row.replaceWith(marketRow(update, update.id === selected, () => void select(update.id)));
  else renderMarkets();
  applyFreshness(update.id, update.freshness);
}

async function select(marketId: string): Promise<void> {
  selected = marketId;
  stopDetail?.();
  stopDetail = undefined;
  renderMarkets();
  const market = markets.get(marketId);
  $('#detail-title').textContent = market ? `${market.id} (${market.protocol})` : marketId;
  const history = await client.query(MarketHistoryQuery, { asset: marketId, resolution: '1h', limit: 168 });
  candleChart.show(history.marketHistory.data.points);
  if (!market?.hasOrderBook) {
    depthChart.show(undefined);
    $('#depth-note').textContent = 'This market has no order book.';
    return;
  }
  $('#depth-note').textContent = '';
  depthChart.show((await client.query(OrderBookQuery, { asset: marketId })).orderBook.data);
  stopDetail = client.subscribe(OrderBookUpdated, { asset: marketId }, (d) => depthChart.show(d.orderBookUpdated.data));
}

function renderExecutions(): void {
  const rows = [...executions.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 50);
  $('#executions tbody').replaceChildren(...rows.map(executionRow));
}

/** The viewer's newest executions, read again through the viewer query; an update in flight queues one more read. */
function viewerReader(client: GatewayClient, onRead: (accountId: string) => void): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const read = async (): Promise<void> => {
    const { viewer } = await client.query(ViewerQuery, { first: 50 });
    if (!viewer) throw new Error('no account for this key');
    if (keyed !== client) return; // another key was pasted meanwhile
    executions.clear();
    for (const edge of viewer.executions?.edges ?? []) executions.set(edge.node.executionId, edge.node);
    onRead(viewer.accountId);
    renderExecutions();
  };
  const next = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = read().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void next().catch(() => undefined);
      }
    });
    return running;
  };
  return next;
}

async function useKey(apiKey: string): Promise<void> {
  keyed?.dispose();
  executions.clear();
  const note = $('#executions-note');
  const client = new GatewayClient(apiKey, () => undefined);
  keyed = client;
  const refetch = viewerReader(client, (accountId) => (note.textContent = `Following the executions of ${accountId} live.`));
  try {
    await refetch();
  } catch (err) {
    note.textContent = `The key was not accepted: ${(err as Error).message}`;
    return;
  }
  // Each state change shows at once, then the viewer query is read again (new executions, their order).
  client.subscribe(ExecutionUpdated, undefined, (d) => {
    executions.set(d.executionUpdated.executionId, d.executionUpdated);
    renderExecutions();
    void refetch().catch((err: Error) => console.warn('viewer refetch failed', err));
  });
}

$<HTMLFormElement>('#key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const key = $<HTMLInputElement>('#api-key').value.trim();
  if (key) void useKey(key);
});

async function boot(): Promise<void> {
  await refresh();
  client.subscribe(MarketUpdated, undefined, (d) => applyMarket(d.marketUpdated));
  client.subscribe(FreshnessChanged, undefined, (d) => applyFreshness(d.freshnessChanged.marketId, d.freshnessChanged.freshness));
  const first = markets.keys().next();
  if (!first.done) await select(first.value);
  document.body.dataset.ready = 'true';
}

void boot();
