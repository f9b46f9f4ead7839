import type { WalletSession, WalletSessionStore } from '../../auth/wallet-session-store.js';
import type { RedisConnection } from './redis-connection.js';
import { json } from './redis-json.js';

export class RedisWalletSessionStore implements WalletSessionStore {
  constructor(private readonly redis: RedisConnection) {}
  private nonce = (n: string) => this.redis.key('siwe-nonce', n);
  private session = (hash: string) => this.redis.key('wallet-session', hash);
  private index = (accountId: string) => this.redis.key('wallet-sessions', accountId);
  async putNonce(nonce: string, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.nonce(nonce), '1', { PX: ttlMs });
    });
  }
  async consumeNonce(nonce: string) {
    return this.redis.guard(async () => {
      // DEL answers 1 to exactly one caller: the nonce works once across every replica.
      return (await this.redis.client.del(this.nonce(nonce))) === 1;
    });
  }
  async putSession(tokenHash: string, session: WalletSession, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client
        .multi()
        .set(this.session(tokenHash), JSON.stringify(session), { PX: ttlMs })
        .sAdd(this.index(session.accountId), tokenHash)
        .pExpire(this.index(session.accountId), ttlMs)
        .exec();
    });
  }
  async getSession(tokenHash: string) {
    return this.redis.guard(async () => {
      return json<WalletSession>(await this.redis.client.get(this.session(tokenHash)));
    });
  }
  async revokeSessions(accountId: string) {
    return this.redis.guard(async () => {
      const hashes = await this.redis.client.sMembers(this.index(accountId));
      if (hashes.length > 0) await this.redis.client.del([...hashes.map((h) => this.session(h)), this.index(accountId)]);
    });
  }
}
