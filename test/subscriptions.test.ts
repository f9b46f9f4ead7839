import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
let client: Client;
beforeAll(async () => {
  gw = await startGateway();
  client = createClient({ url: gw.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
});
afterAll(async () => {
  await client.dispose();
  await gw.close();
});

/**
 * Ingests every 50 ms until the subscriptions have their events: a subscription is registered a
 * round trip after `subscribe`, so one poll after a fixed sleep races it on a loaded machine.
 */
async function ingestUntil<T extends unknown[]>(...subscriptions: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  let settled = false;
  const poller = (async () => {
    while (!settled) {
      await gw.app.services.ingest.pollAll();
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return (await Promise.all(subscriptions)) as T;
  } finally {
    settled = true;
    await poller;
  }
}

/** Collects `count` events of one subscription, failing after a timeout. */
function take<T>(query: string, count: number, onSubscribed?: () => unknown, timeoutMs = 5_000): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const events: T[] = [];
    const timer = setTimeout(() => (stop(), reject(new Error(`only ${events.length} of ${count} events`))), timeoutMs);
    const stop = client.subscribe<T>(
      { query },
      {
        next: (value) => {
          if (value.errors) return reject(new Error(JSON.stringify(value.errors)));
          events.push(value.data as T);
          if (events.length === 1) void onSubscribed?.();
          if (events.length >= count) {
            clearTimeout(timer);
            stop();
            resolve(events);
          }
        },
        error: (e) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(JSON.stringify(e)))),
        complete: () => undefined,
      },
    );
  });
}

describe('graphql-ws subscriptions', () => {
  it('freshnessChanged emits the current freshness on subscribe, then the stale flip when the venue goes down', async () => {
    const events = await take<any>(
      'subscription { freshnessChanged(asset: "BTC") { marketId asset freshness { asOf stale staleReason sourceStatus } } }',
      2,
      () => gw.setFault('paper-perps', 'down'),
    );
    expect(events[0].freshnessChanged).toMatchObject({ marketId: 'BTC-PERP', freshness: { stale: false, sourceStatus: 'healthy' } });
    expect(events[1].freshnessChanged).toMatchObject({ marketId: 'BTC-PERP', freshness: { stale: true, staleReason: 'source_down', sourceStatus: 'down' } });
    await gw.setFault('paper-perps', 'none');
  });

  it('freshnessChanged reports a stale flip caused only by time passing', async () => {
    const events = await take<any>('subscription { freshnessChanged(asset: "AAPL") { freshness { stale staleReason } } }', 2, async () => {
      gw.clock.advance(61_000);
      await gw.app.services.ingest.publishFreshnessChanges();
    });
    expect(events.map((e) => e.freshnessChanged.freshness)).toEqual([
      { stale: false, staleReason: null },
      { stale: true, staleReason: 'max_age_exceeded' },
    ]);
    await gw.app.services.ingest.pollAll();
  });

  it('freshnessChanged stays quiet while only snapshots change, numbers its events and sends a heartbeat', async () => {
    const events = await take<any>(
      'subscription { freshnessChanged(asset: "ETH") { sequence producedAt heartbeat freshness { stale sourceStatus } } }',
      3,
      async () => {
        for (let i = 0; i < 3; i++) await gw.app.services.ingest.pollAll(); // new snapshots, same state: no event
        await gw.setFault('paper-perps', 'down');
        gw.clock.advance(30_000);
        await gw.app.services.ingest.publishFreshnessChanges();
      },
    );
    expect(events[0].freshnessChanged).toMatchObject({ heartbeat: false, freshness: { stale: false } });
    const [flip, beat] = [events[1].freshnessChanged, events[2].freshnessChanged];
    expect(flip).toMatchObject({ heartbeat: false, freshness: { stale: true, sourceStatus: 'down' } });
    expect(beat).toMatchObject({ heartbeat: true, sequence: flip.sequence + 1, freshness: { stale: true, sourceStatus: 'down' } });
    expect(Date.parse(beat.producedAt) - Date.parse(flip.producedAt)).toBe(30_000);
    await gw.setFault('paper-perps', 'none');
  });

  it('a client reconnecting with the last sequence it saw is told whether it missed events', async () => {
    const q = (last: number) => `subscription { freshnessChanged(asset: "SOL", lastSequence: ${last}) { sequence missedEvents freshness { stale } } }`;
    const [, flip] = await take<any>('subscription { freshnessChanged(asset: "SOL") { sequence } }', 2, () => gw.setFault('paper-perps', 'down'));
    const seen = flip.freshnessChanged.sequence as number;
    const [upToDate] = await take<any>(q(seen), 1);
    expect(upToDate.freshnessChanged).toMatchObject({ sequence: seen, missedEvents: false, freshness: { stale: true } });
    await gw.setFault('paper-perps', 'none'); // while disconnected
    const [behind] = await take<any>(q(seen), 1);
    expect(behind.freshnessChanged).toMatchObject({ sequence: seen + 1, missedEvents: true, freshness: { stale: false } });
  });

  it('without an asset, follows every market', async () => {
    const events = await take<any>('subscription { freshnessChanged { marketId } }', 10);
    expect(new Set(events.map((e) => e.freshnessChanged.marketId)).size).toBe(10);
  });

  it('marketUpdated and orderBookUpdated deliver complete payloads from ingest', async () => {
    const [market, book] = await ingestUntil<[any[], any[]]>(
      take<any>('subscription { marketUpdated(asset: "ETH") { id price freshness { stale } } }', 1, undefined),
      take<any>('subscription { orderBookUpdated(asset: "ETH") { freshness { stale } data { marketId bids { price size cumulativeSize } } } }', 1),
    );
    expect(market[0].marketUpdated).toMatchObject({ id: 'ETH-PERP', freshness: { stale: false } });
    expect(market[0].marketUpdated.price).toMatch(/^\d+\.\d{2}$/);
    expect(book[0].orderBookUpdated.data.marketId).toBe('ETH-PERP');
    expect(book[0].orderBookUpdated.data.bids).toHaveLength(100);
  });

  it('marketUpdated and orderBookUpdated events carry a per-market sequence and producedAt, the same for every subscriber', async () => {
    const market = 'subscription { marketUpdated(asset: "BTC") { id price sequence producedAt missedEvents } }';
    const book = 'subscription { orderBookUpdated(asset: "BTC") { sequence producedAt missedEvents data { bids { price } } } }';
    const [m1, m2, b1] = await ingestUntil<[any[], any[], any[]]>(take<any>(market, 3), take<any>(market, 3), take<any>(book, 3));
    for (const events of [m1.map((e) => e.marketUpdated), m2.map((e) => e.marketUpdated), b1.map((e) => e.orderBookUpdated)]) {
      const sequences = events.map((e: any) => e.sequence);
      expect(sequences).toEqual([sequences[0], sequences[0] + 1, sequences[0] + 2]);
      for (const e of events) {
        expect(e.missedEvents).toBeNull();
        expect(Date.parse(e.producedAt)).toBeLessThanOrEqual(gw.clock.now());
      }
    }
    // An event is numbered once, by its producer: two subscribers that saw it saw the same number and payload.
    const bySequence = new Map(m2.map((e) => [e.marketUpdated.sequence, e.marketUpdated]));
    const common = m1.map((e) => e.marketUpdated).filter((e: any) => bySequence.has(e.sequence));
    expect(common.length).toBeGreaterThan(0);
    for (const e of common) expect(bySequence.get(e.sequence)).toEqual(e);
  });

  it.each([
    ['marketUpdated', (last: number) => `subscription { marketUpdated(asset: "SOL", lastSequence: ${last}) { id sequence missedEvents } }`],
    [
      'orderBookUpdated',
      (last: number) => `subscription { orderBookUpdated(asset: "SOL", lastSequence: ${last}) { data { marketId } sequence missedEvents } }`,
    ],
  ] as const)('%s: a client reconnecting with the last sequence it saw is told whether it missed events', async (field, q) => {
    // With lastSequence the current state comes first; one ingest round after it gives the next event.
    const [, next] = await take<any>(q(0), 2, () => gw.app.services.ingest.pollAll());
    const seen = next[field].sequence as number;
    expect(seen).toBeGreaterThan(0);
    const [upToDate] = await take<any>(q(seen), 1);
    expect(upToDate[field]).toMatchObject({ sequence: seen, missedEvents: false });
    await gw.app.services.ingest.pollAll(); // while disconnected
    const [behind] = await take<any>(q(seen), 1);
    expect(behind[field]).toMatchObject({ sequence: seen + 1, missedEvents: true });
  });

  it('graph fields of an event are read for that event, not from an earlier event of the same subscription', async () => {
    const query = 'subscription { marketUpdated(asset: "BTC") { sequence orderBook(depth: 1) { bids { price } } } }';
    const events = take<any>(query, 3);
    let settled = false;
    void events.finally(() => (settled = true));
    while (!settled) {
      gw.clock.advance(61_000); // the simulated book moves with time
      await gw.app.services.ingest.pollAll();
      await new Promise((r) => setTimeout(r, 50));
    }
    const bids = (await events).map((e) => e.marketUpdated.orderBook.bids[0].price);
    expect(new Set(bids).size).toBe(3);
  });

  it('one event executed once per document and variables is shared, yet every subscriber gets its own selection', async () => {
    // Four subscribers, one event round: two share a document (one execution), the others differ in
    // variables or selection (fragment included), and none may receive another's result.
    const byVariables = (asset: string) =>
      new Promise<any>((resolve, reject) => {
        const stop = client.subscribe<any>(
          { query: 'subscription ($a: String) { marketUpdated(asset: $a) { id asset } }', variables: { a: asset } },
          { next: (v) => (stop(), v.errors ? reject(new Error(JSON.stringify(v.errors))) : resolve(v.data)), error: reject, complete: () => undefined },
        );
      });
    const [a, b, sol, fragment] = await ingestUntil<[any[], any[], any, any[]]>(
      take<any>('subscription { marketUpdated(asset: "BTC") { id price } }', 1),
      take<any>('subscription { marketUpdated(asset: "BTC") { id price } }', 1),
      byVariables('SOL'),
      take<any>('subscription { marketUpdated(asset: "BTC") { ...M } } fragment M on Market { id asset }', 1),
    );
    expect(a[0]).toEqual(b[0]);
    expect(Object.keys(a[0].marketUpdated).sort()).toEqual(['id', 'price']);
    expect(sol.marketUpdated).toEqual({ id: 'SOL-PERP', asset: 'SOL' });
    expect(fragment[0].marketUpdated).toEqual({ id: 'BTC-PERP', asset: 'BTC' });
  });

  it('sends a shared result as the same text frame graphql-ws writes for an unshared one', async () => {
    // A directive keeps an operation out of the shared path: both operations select the same fields.
    const socket = new WebSocket(gw.baseUrl.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const frames: { text: string; binary: boolean }[] = [];
    socket.on('message', (data, binary) => frames.push({ text: String(data), binary }));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    while (!frames.some((f) => f.text.includes('"connection_ack"'))) await new Promise((r) => setTimeout(r, 10));
    const fields = '{ id price freshness { asOf stale } }';
    const ids = { shared: 'shared-1', unshared: 'ünshared "2"' };
    socket.send(JSON.stringify({ id: ids.shared, type: 'subscribe', payload: { query: `subscription { marketUpdated(asset: "BTC") ${fields} }` } }));
    socket.send(
      JSON.stringify({ id: ids.unshared, type: 'subscribe', payload: { query: `subscription { marketUpdated(asset: "BTC") @include(if: true) ${fields} }` } }),
    );
    const next = (id: string) => frames.filter((f) => f.text.startsWith('{"id":' + JSON.stringify(id) + ',"type":"next"'));
    // Until both saw the same event (same asOf): subscriptions register a round trip apart.
    const asOf = (f: { text: string }) => JSON.parse(f.text).payload.data.marketUpdated.freshness.asOf as string;
    const pair = () => next(ids.shared).find((a) => next(ids.unshared).some((b) => asOf(b) === asOf(a)));
    await ingestUntil(
      (async () => {
        while (!pair()) await new Promise((r) => setTimeout(r, 20));
      })(),
    );
    socket.close();
    const shared = pair()!;
    const unshared = next(ids.unshared).find((b) => asOf(b) === asOf(shared))!;
    expect([shared.binary, unshared.binary]).toEqual([false, false]);
    const payloadOf = (text: string, id: string) => text.slice(`{"id":${JSON.stringify(id)},"type":"next","payload":`.length);
    expect(payloadOf(shared.text, ids.shared)).toBe(payloadOf(unshared.text, ids.unshared));
    expect(JSON.parse(shared.text)).toEqual({ id: ids.shared, type: 'next', payload: JSON.parse(payloadOf(unshared.text, ids.unshared).slice(0, -1)) });
  });

  it('refuses an unknown market with an error', async () => {
    await expect(take('subscription { freshnessChanged(asset: "NOPE") { marketId } }', 1)).rejects.toThrow(/NOPE/);
  });
});

describe('SSE subscriptions (GraphQL over SSE, distinct connections mode)', () => {
  it('streams freshnessChanged events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${gw.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { freshnessChanged(asset: "SOL") { marketId freshness { stale } } }' }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n') || !text.includes('event: next')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const data = JSON.parse(/data: (.+)/.exec(text.slice(text.indexOf('event: next')))![1]!);
    expect(data.data.freshnessChanged).toEqual({ marketId: 'SOL-PERP', freshness: { stale: false } });
  });
});

describe('GraphQL over HTTP', () => {
  const gql = async (query: string) =>
    (await fetch(`${gw.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json();

  it('answers the same fields the REST routes are derived from', async () => {
    const body = await gql('{ market(asset: "BTC") { freshness { stale } data { id price } } }');
    expect(body.data.market.data.id).toBe('BTC-PERP');
  });

  it('carries the same error codes, without stacks', async () => {
    const body = await gql('{ marketHistory(asset: "BTC", limit: 0) { data { points { time } } } }');
    expect(body.errors[0].extensions).toMatchObject({ code: 'invalid_public_market_history_query' });
    const book = await gql('{ orderBook(asset: "USDC-LEND") { depth: data { depth } } }');
    expect(book.errors[0].extensions.code).toBe('public_orderbook_not_available');
    expect(JSON.stringify([body, book])).not.toMatch(/stack|node_modules|\.ts:/);
  });
});
