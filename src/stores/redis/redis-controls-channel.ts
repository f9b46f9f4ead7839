import type { ControlsChannel, ControlsSnapshot } from '../../controls/shared-controls.js';
import type { RedisConnection } from './redis-connection.js';

/** The fleet's controls in one Redis key, with a channel that tells replicas it changed. */
export class RedisControlsChannel implements ControlsChannel {
  private readonly key: string;
  private readonly channel: string;

  constructor(private readonly redis: RedisConnection) {
    this.key = redis.key('controls');
    this.channel = redis.key('controls-changed');
  }

  async load(): Promise<ControlsSnapshot | undefined> {
    return this.redis.guard(async () => {
      const raw = await this.redis.client.get(this.key);
      return raw ? (JSON.parse(raw) as ControlsSnapshot) : undefined;
    });
  }

  async save(snapshot: ControlsSnapshot): Promise<void> {
    await this.redis.guard(async () => {
      await this.redis.client.multi().set(this.key, JSON.stringify(snapshot)).publish(this.channel, this.redis.replicaId).exec();
    });
  }

  async listen(onChange: () => void): Promise<() => void> {
    const handler = (origin: string) => {
      if (origin !== this.redis.replicaId) onChange();
    };
    await this.redis.subscriber.subscribe(this.channel, handler);
    // After an outage the last change may have been missed: read again on reconnect.
    const off = this.redis.onStateChange((connected) => connected && onChange());
    return () => {
      off();
      void this.redis.subscriber.unsubscribe(this.channel, handler).catch(() => undefined);
    };
  }
}
