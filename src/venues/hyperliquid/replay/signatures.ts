import { encode } from '@msgpack/msgpack';
import { concat, keccak256, numberToHex, recoverTypedDataAddress, type Hex } from 'viem';

/**
 * Hyperliquid's L1 action signatures, checked as the venue checks them (docs "Signing"; the
 * Python SDK's `sign_l1_action`; @nktkas/hyperliquid 0.32.2 `src/signing/mod.ts`), written here
 * from those rather than calling the SDK, so the fake checks the SDK and not itself:
 *
 *   connectionId = keccak256( msgpack(action) ‖ nonce as u64 big-endian ‖ 0x00 (no vault) | 0x01 ‖ vault address
 *                             ‖ [0x00 ‖ expiresAfter as u64, when set] )
 *   signed typed data: domain { name: "Exchange", version: "1", chainId: 1337, verifyingContract: 0x0…0 },
 *                      Agent { source: string ("a" mainnet, "b" testnet), connectionId: bytes32 }
 *
 * The action is hashed with its keys in the order they were sent (msgpack keeps map order), so
 * the JSON body as parsed is the action as signed. Integers of 2^32 and above are u64 (the
 * encoder's default, as Python's msgpack does), and undefined members are left out.
 */

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as const;

const AGENT_TYPES = {
  Agent: [
    { name: 'source', type: 'string' },
    { name: 'connectionId', type: 'bytes32' },
  ],
} as const;

/** The "phantom agent"'s connectionId of an action (what the signature commits to). */
export function l1ActionHash(action: unknown, nonce: number, vaultAddress?: string, expiresAfter?: number): Hex {
  const parts: Hex[] = [
    `0x${Buffer.from(encode(action, { ignoreUndefined: true })).toString('hex')}`,
    numberToHex(BigInt(nonce), { size: 8 }),
    vaultAddress ? concat(['0x01', vaultAddress as Hex]) : '0x00',
  ];
  if (expiresAfter !== undefined) parts.push('0x00', numberToHex(BigInt(expiresAfter), { size: 8 }));
  return keccak256(concat(parts));
}

/** A signature as the venue's body carries it. */
export interface WireSignature {
  r: string;
  s: string;
  v: number;
}

/**
 * The address that signed an L1 action for `network` (lower-cased), or undefined when the
 * signature cannot be recovered at all. A signature made for the other network recovers to
 * another address, as at the venue ("User or API Wallet … does not exist.").
 */
export async function l1Signer(
  body: { action: unknown; nonce: number; signature: WireSignature; vaultAddress?: string; expiresAfter?: number },
  network: 'mainnet' | 'testnet',
): Promise<string | undefined> {
  const { r, s, v } = body.signature;
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(r) || !/^0x[0-9a-fA-F]{1,64}$/.test(s) || (v !== 27 && v !== 28)) return undefined;
  const pad = (h: string) => h.slice(2).padStart(64, '0');
  try {
    const address = await recoverTypedDataAddress({
      domain: { name: 'Exchange', version: '1', chainId: 1337, verifyingContract: ZERO_ADDRESS },
      types: AGENT_TYPES,
      primaryType: 'Agent',
      message: {
        source: network === 'mainnet' ? 'a' : 'b',
        connectionId: l1ActionHash(body.action, body.nonce, body.vaultAddress, body.expiresAfter),
      },
      signature: `0x${pad(r)}${pad(s)}${v.toString(16)}`,
    });
    return address.toLowerCase();
  } catch {
    return undefined;
  }
}
