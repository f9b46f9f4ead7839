import type { AgentSessionStore } from './execution-stores.js';
import type { AgentSession } from './execution-types.js';

/** In force at `now`: not revoked, started, not expired. */
export const activeAt = (s: AgentSession, now: number): boolean => s.revokedAt === null && s.startsAt <= now && now < s.expiresAt;

/** The agent sessions of one key that are in force now. */
export async function activeSessionsOf(store: AgentSessionStore, accountId: string, keyId: string, now: number): Promise<AgentSession[]> {
  return (await store.list(accountId)).filter((s) => s.apiKeyId === keyId && activeAt(s, now));
}

/** A session covers a protocol action (capabilities: whatever the asset). */
export const coversAction = (s: AgentSession, protocol: string, action: string): boolean => s.protocols.includes(protocol) && s.actions.includes(action);

/** A session covers an instruction: its protocol, action and asset. */
export const coversInstruction = (s: AgentSession, i: { protocol: string; action: string; assetIn: { token: string } }): boolean =>
  coversAction(s, i.protocol, i.action) && s.assets.map((a) => a.toUpperCase()).includes(i.assetIn.token.toUpperCase());

/** The start of the spend period `now` falls in. */
export const periodStartOf = (s: AgentSession, now: number): number => Math.floor(now / (s.periodSeconds * 1000)) * s.periodSeconds * 1000;
