import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
/** Anything that answers gateway requests: a test gateway in-process, or a replica process. */
export interface GatewayClient {
  get(path: string, init?: RequestInit): Promise<Response>;
  clock?: { now(): number };
}

/** A real secp256k1 test wallet (a well-known development key; never holds anything). */
export const TEST_WALLET = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
export const OTHER_WALLET = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

export const SIWE_DOMAIN = 'gateway.test';

/** Asks the gateway for a nonce, then signs an EIP-4361 message with it. */
export async function signedMessage(
  gw: GatewayClient,
  options: { wallet?: typeof TEST_WALLET; statement?: string; resources?: string[]; issuedAt?: Date; nonce?: string; domain?: string } = {},
): Promise<{ message: string; signature: string; nonce: string }> {
  const wallet = options.wallet ?? TEST_WALLET;
  const nonce = options.nonce ?? (await (await gw.get('/api/v1/auth/siwe/nonce', { method: 'POST' })).json()).nonce;
  const message = createSiweMessage({
    domain: options.domain ?? SIWE_DOMAIN,
    address: wallet.address,
    uri: `https://${SIWE_DOMAIN}`,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: options.issuedAt ?? new Date(gw.clock?.now() ?? Date.now()),
    ...(options.statement ? { statement: options.statement } : {}),
    ...(options.resources ? { resources: options.resources } : {}),
  });
  // `nonce` is kept off the spread: request bodies are `{ ...signed }` and the gateway refuses unknown fields.
  return Object.defineProperty({ message, signature: await wallet.signMessage({ message }) }, 'nonce', { value: nonce, enumerable: false }) as {
    message: string;
    signature: string;
    nonce: string;
  };
}

/** Signs in with Ethereum and returns the wallet session's bearer token. */
export async function walletSession(gw: GatewayClient, wallet = TEST_WALLET): Promise<string> {
  const { message, signature } = await signedMessage(gw, { wallet });
  const res = await gw.get('/api/v1/auth/siwe/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()).sessionToken;
}
