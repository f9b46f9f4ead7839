import { randomBytes } from 'node:crypto';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import type { Clock } from '../domain/clock.js';
import type { WalletSession, WalletSessionStore } from './wallet-session-store.js';
import type { IdentityStore } from './identity-store.js';
import { sha256Hex } from './api-key-secret.js';
import { personalSignatureMatches } from './message-signature.js';
import { walletSignatureInvalid } from '../errors/auth-refusals.js';

export const SESSION_PREFIX = 'tgws_';
const NONCE_TTL_MS = 5 * 60_000;
const SESSION_TTL_MS = 15 * 60_000;
/** A signed message older than this is not a fresh re-authentication. */
export const FRESH_SIGNATURE_MS = 2 * 60_000;
const CLOCK_SKEW_MS = 30_000;

export interface SiweSettings {
  /** The domain clients must name in their messages (the gateway's public host). */
  domain: string;
}

export interface VerifiedSignature {
  address: string;
  statement: string | undefined;
  resources: string[];
}

const refused = walletSignatureInvalid;

/**
 * Sign-in with Ethereum (EIP-4361): single-use server nonces, messages checked and signatures
 * recovered natively (libsecp256k1, viem's verdict), short-lived bearer sessions stored by hash.
 */
export class WalletSessions {
  constructor(
    private readonly store: WalletSessionStore,
    private readonly identities: IdentityStore,
    private readonly clock: Clock,
    readonly settings: SiweSettings,
  ) {}

  async issueNonce(): Promise<{ nonce: string; expiresAt: number; domain: string }> {
    // 192 bits from the system CSPRNG, alphanumeric as EIP-4361 requires. Not viem's
    // generateSiweNonce(), which slides a window over one Math.random buffer: consecutive nonces
    // share all but one character, so the next one is guessable.
    const nonce = randomBytes(24).toString('hex');
    await this.store.putNonce(nonce, NONCE_TTL_MS);
    return { nonce, expiresAt: this.clock.now() + NONCE_TTL_MS, domain: this.settings.domain };
  }

  /**
   * Checks an EIP-4361 message and its signature: our domain, a nonce we issued (consumed here,
   * so it works once), issued within `maxAgeMs`, not expired, and signed by `address`.
   */
  async verifySignedMessage(message: string, signature: string, maxAgeMs: number): Promise<VerifiedSignature> {
    let fields: ReturnType<typeof parseSiweMessage>;
    try {
      fields = parseSiweMessage(message);
    } catch {
      throw refused('The message is not an EIP-4361 message.');
    }
    const now = this.clock.now();
    if (!fields.address || !fields.nonce || !fields.issuedAt) throw refused('The message lacks address, nonce or issued-at.');
    const domain = domainMatches(fields.domain, this.settings.domain) ? fields.domain! : this.settings.domain;
    if (!validateSiweMessage({ message: fields, domain, time: new Date(now) })) {
      throw refused('The message is for another domain, expired or not yet valid.', { domain: fields.domain });
    }
    const issuedAt = fields.issuedAt.getTime();
    if (!Number.isFinite(issuedAt) || issuedAt > now + CLOCK_SKEW_MS || now - issuedAt > maxAgeMs)
      throw refused(`The message must be signed within ${Math.round(maxAgeMs / 1000)} s.`);
    if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw refused('The signature is malformed.');
    if (!(await personalSignatureMatches(fields.address, message, signature))) throw refused('The signature does not match the message address.');
    // Consumed only once the signature holds, so a forged message cannot burn a real nonce.
    if (!(await this.store.consumeNonce(fields.nonce))) throw refused('The nonce is unknown, expired or already used.');
    return { address: fields.address, statement: fields.statement, resources: fields.resources ?? [] };
  }

  async signIn(message: string, signature: string): Promise<{ sessionToken: string; accountId: string; wallet: string; expiresAt: number }> {
    const signed = await this.verifySignedMessage(message, signature, NONCE_TTL_MS);
    const account = (await this.identities.listAccounts()).find((a) => a.wallet.toLowerCase() === signed.address.toLowerCase());
    if (!account) throw refused('No account uses this wallet.');
    const sessionToken = SESSION_PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const session: WalletSession = { accountId: account.id, wallet: account.wallet, createdAt: now, expiresAt: now + SESSION_TTL_MS };
    await this.store.putSession(sha256Hex(sessionToken), session, SESSION_TTL_MS);
    return { sessionToken, accountId: account.id, wallet: account.wallet, expiresAt: session.expiresAt };
  }

  async sessionFor(token: string): Promise<WalletSession | undefined> {
    const session = await this.store.getSession(sha256Hex(token));
    return session && session.expiresAt > this.clock.now() ? session : undefined;
  }

  revokeAll(accountId: string): Promise<void> {
    return this.store.revokeSessions(accountId);
  }
}

/**
 * The message's domain names the gateway: exactly the configured one (which may carry a port),
 * or, when the configured one has no port, that host with a port (`localhost:8080`, as a browser
 * wallet writes it).
 */
function domainMatches(messageDomain: string | undefined, configured: string): boolean {
  if (!messageDomain) return false;
  const wanted = configured.toLowerCase();
  const got = messageDomain.toLowerCase();
  if (got === wanted) return true;
  return !/:\d+$/.test(wanted) && got.startsWith(`${wanted}:`) && /^\d{1,5}$/.test(got.slice(wanted.length + 1));
}
