/* eslint-disable @typescript-eslint/no-explicit-any -- gateway answers are JSON, printed as they come. */
import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

/** A failed gateway call, carrying the gateway's own error body. */
export class GatewayCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * What the wallet helper does against a running gateway, over its public REST contract only:
 * sign EIP-4361 messages with a local key, sign in, decide approvals, execute, open agent sessions.
 */
export class WalletClient {
  constructor(
    private readonly baseUrl: string,
    private readonly account: PrivateKeyAccount,
  ) {}

  async call(method: string, path: string, token?: string, body?: unknown): Promise<any> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new GatewayCallError(res.status, json);
    return json;
  }

  /**
   * A fresh nonce, then an EIP-4361 message naming it. The domain is the gateway's host as this
   * helper reaches it (with its port, as a browser wallet writes it) when that host is the
   * gateway's configured domain; otherwise the configured domain itself.
   */
  async signedMessage(extra: { statement?: string; resources?: string[] } = {}): Promise<{ message: string; signature: string }> {
    const { nonce, domain } = (await this.call('POST', '/api/v1/auth/siwe/nonce')) as { nonce: string; domain: string };
    const url = new URL(this.baseUrl);
    const message = createSiweMessage({
      domain: url.hostname === domain ? url.host : domain,
      address: this.account.address,
      uri: url.origin,
      version: '1',
      chainId: 1,
      nonce,
      issuedAt: new Date(),
      ...(extra.statement ? { statement: extra.statement } : {}),
      ...(extra.resources ? { resources: extra.resources } : {}),
    });
    return { message, signature: await this.account.signMessage({ message }) };
  }

  /** Sign in with Ethereum: a wallet session (tgws_..., 15 minutes). */
  async signIn(): Promise<{ sessionToken: string; accountId: string; wallet: string; expiresAt: string }> {
    return this.call('POST', '/api/v1/auth/siwe/verify', undefined, await this.signedMessage());
  }

  /** Approves an approval with a fresh signature over its approveRequest. */
  async approve(session: string, approvalId: string): Promise<any> {
    const approval = await this.call('GET', `/api/v1/execute/approvals/${encodeURIComponent(approvalId)}`, session);
    const req = approval.approveRequest as { statement: string; resources: string[] };
    const signed = await this.signedMessage({ statement: req.statement, resources: req.resources });
    return this.call('PATCH', `/api/service/ai/approvals/${encodeURIComponent(approvalId)}`, session, { decision: 'approve', ...signed });
  }

  /** Preview, create the approval of that exact instruction, and approve it: returns the approval. */
  async previewAndApprove(session: string, order: Record<string, unknown>): Promise<any> {
    await this.call('POST', '/api/v1/execute/preview', session, order);
    const created = await this.call('POST', '/api/v1/execute/approvals', session, order);
    return this.approve(session, created.approvalId as string);
  }

  /** The whole interactive flow: preview, approval, fresh signature, one-time execution. */
  async execute(session: string, order: Record<string, unknown>): Promise<any> {
    const approval = await this.previewAndApprove(session, order);
    return this.call('POST', '/api/v1/execute', session, { ...order, approvalId: approval.approvalId });
  }
}
