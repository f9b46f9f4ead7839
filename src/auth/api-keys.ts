import type { Clock } from '../domain/clock.js';
import { notFound } from '../errors/error-factories.js';
import type { ApiKeyRecord } from './identity.js';
import type { IdentityStore } from './identity-store.js';

/** An account's API keys as its holder manages them (revocation; issuing is the keys CLI's). */
export class ApiKeys {
  constructor(
    private readonly identities: IdentityStore,
    private readonly clock: Clock,
  ) {}

  /** Revokes one of the account's keys; effective on the next request. */
  async revokeOwn(accountId: string, keyId: string): Promise<ApiKeyRecord> {
    const key = await this.identities.getKey(keyId);
    if (!key || key.accountId !== accountId) throw notFound('api_key_not_found', `No key ${keyId} for this account.`);
    return (await this.identities.revokeKey(keyId, new Date(this.clock.now()).toISOString())) ?? key;
  }
}
