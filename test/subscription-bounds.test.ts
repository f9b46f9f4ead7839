import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config/gateway-config.js';
import { ManualClock } from '../src/domain/clock.js';
import { requestContext } from '../src/http/context/request-context.js';
import { marketUpdates, maxQueued } from '../resolvers/public/live-updates.js';

// The gateway's own event bus and market router, without a server: a subscriber that does not read.
const app = buildApp(testConfig(), { clock: new ManualClock(Date.now()) });
afterAll(() => app.endStreams());
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const publishBtc = async (count: number) => {
  for (let i = 0; i < count; i++) app.services.events.publish('market:updated', { id: 'BTC-PERP', sequence: i + 1 } as never);
  await settle();
};

describe('a subscription whose consumer does not read', () => {
  it(`keeps up to maxQueued events in order, and ends with slow_consumer one past it instead of growing`, async () => {
    const limit = maxQueued(1);
    const keeping = marketUpdates(requestContext(app.services, undefined, undefined), 'BTC');
    const overflowing = marketUpdates(requestContext(app.services, undefined, undefined), 'BTC');
    await settle();
    await publishBtc(limit);
    const kept: number[] = [];
    for (let i = 0; i < limit; i++) kept.push(((await keeping.next()).value as { sequence: number }).sequence);
    expect(kept).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
    await keeping.return!();

    await publishBtc(1);
    await expect(overflowing.next()).rejects.toMatchObject({ code: 'slow_consumer' });
    expect(await overflowing.next()).toEqual({ value: undefined, done: true });
  });
});
