import { afterAll, describe, expect, it } from 'vitest';
import { accountTopicEvents } from '../resolvers/execution/account-events.js';
import { eventStream } from '../src/events/event-stream.js';
import { createGatewayEvents, SUBSCRIPTION_BUFFER, SubscriptionOverflow } from '../src/events/gateway-events.js';
import { SESSION_TIME } from './support/execution.js';
import { followExecutions } from './support/execution-events.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET } from './support/wallet.js';

/**
 * Bursts on the event bus: every update of one group commit (1,000 orders filled at once) or every
 * market of one ingest round is published in one turn, while subscribers read one event a turn.
 */
/** Reads an iterator until it ends or throws: how many values it gave, and the error it ended with. */
async function readToEnd(iterator: AsyncIterator<unknown>): Promise<{ read: number; error: unknown }> {
  let read = 0;
  for (;;) {
    try {
      if ((await iterator.next()).done) return { read, error: undefined };
      read++;
    } catch (error) {
      return { read, error };
    }
  }
}

describe('the event bus under a burst published in one turn', () => {
  it('a subscriber that reads afterwards gets every event, in order, far past 1,024', async () => {
    const events = createGatewayEvents();
    const sub = events.subscribe('execution:updated')[Symbol.asyncIterator]();
    const first = sub.next();
    const burst = 5_000;
    for (let i = 0; i < burst; i++) events.publish('execution:updated', { id: `e-${i}` } as never);
    const seen = [(await first).value.id];
    for (let i = 1; i < burst; i++) seen.push((await sub.next()).value.id);
    expect(seen).toEqual(Array.from({ length: burst }, (_, i) => `e-${i}`));
    await sub.return?.();
  });

  it('a subscriber that stops reading is ended with SubscriptionOverflow past its buffer; the publisher and a reading subscriber go on', async () => {
    const events = createGatewayEvents();
    const stalled = events.subscribe('execution:updated')[Symbol.asyncIterator]();
    const stalledFirst = stalled.next(); // attached, then not read again until the end
    const reader = events.subscribe('execution:updated')[Symbol.asyncIterator]();
    const chunk = SUBSCRIPTION_BUFFER / 2;
    const rounds = 3;
    const read: string[] = [];
    let next = reader.next();
    for (let round = 0; round < rounds; round++) {
      // One turn's burst, then the reader reads it all (the stalled one does not).
      for (let i = 0; i < chunk; i++) events.publish('execution:updated', { id: `e-${round * chunk + i}` } as never);
      for (let i = 0; i < chunk; i++) {
        read.push((await next).value.id);
        next = reader.next();
      }
    }
    expect(read).toHaveLength(rounds * chunk);
    expect(read.at(-1)).toBe(`e-${rounds * chunk - 1}`);
    expect((await stalledFirst).value.id).toBe('e-0');
    const { read: buffered, error: overflow } = await readToEnd(stalled);
    // What it held before it overflowed is still read, then the end says why.
    // (its buffer and the 1,024 pushes a repeater lets wait past it)
    expect(buffered).toBe(SUBSCRIPTION_BUFFER + 1_024);
    expect(buffered).toBeLessThan(rounds * chunk - 1);
    expect(overflow).toBeInstanceOf(SubscriptionOverflow);
    await reader.return?.();
  });
});

describe('an account subscription (executionUpdated, approvalUpdated) that falls the bus’s buffer behind', () => {
  it('ends with the public slow_consumer error, after what it held', async () => {
    const events = createGatewayEvents();
    const stream = eventStream(accountTopicEvents(events, 'execution:updated'), (e) => e.accountId === 'acct-1')[Symbol.asyncIterator]();
    const first = stream.next(); // subscribed, then not read during the burst
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < SUBSCRIPTION_BUFFER + 5_000; i++) events.publish('execution:updated', { id: `e-${i}`, accountId: 'acct-1' } as never);
    expect((await first).value.id).toBe('e-0');
    const { read, error: ended } = await readToEnd(stream);
    expect(read + 1).toBeLessThan(SUBSCRIPTION_BUFFER + 5_000);
    expect(ended).toMatchObject({ code: 'slow_consumer', status: 503, options: { retryable: true } });
  });
});

describe('a gateway publishing more than 1,024 execution updates in one turn', () => {
  let gw: TestGateway;
  afterAll(() => gw?.close());

  it('stays up: a graphql-ws subscriber receives every one of its updates, and the metrics count them', async () => {
    const keys = writeBootstrap(TEST_WALLET.address);
    gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
    const { events: received, close } = await followExecutions(gw.baseUrl, keys.full, 'executionId state');
    const metric = async () => {
      const text = await (await fetch(`${gw.baseUrl}/metrics`)).text();
      return Number(/gateway_execution_updates_total\{state="filled"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await metric();
    const burst = 1_500;
    const execution = (i: number) => ({ id: `burst-${i}`, accountId: 'acct-1', state: 'filled', history: [], referenceId: `burst-${i}` });
    for (let i = 0; i < burst; i++) gw.app.services.events.publish('execution:updated', execution(i) as never);
    const deadline = Date.now() + 20_000;
    while (received.length < burst && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(burst);
    expect(received.slice(0, 3).map((e) => e.executionId)).toEqual(['burst-0', 'burst-1', 'burst-2']);
    expect(await metric()).toBe(before + burst);
    expect((await fetch(`${gw.baseUrl}/readyz`)).status).toBe(200);
    await close();
  });
});
