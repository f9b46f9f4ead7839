import { describe, expect, it } from 'vitest';
import { verifyMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { personalSignatureMatches, signatureRecovery } from '../src/auth/message-signature.js';

/** secp256k1's group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex32 = (n: bigint) => n.toString(16).padStart(64, '0');

/** viem's verdict, the reference: false where it throws, as the gateway always treated it. */
const viemVerdict = (address: string, message: string, signature: string) =>
  verifyMessage({ address: address as Hex, message, signature: signature as Hex }).catch(() => false);

async function expectSameVerdict(address: string, message: string, signature: string, expected?: boolean) {
  const ours = await personalSignatureMatches(address, message, signature);
  expect(ours, `${signature} for ${address}`).toBe(await viemVerdict(address, message, signature));
  if (expected !== undefined) expect(ours).toBe(expected);
}

describe('personal signature check (libsecp256k1 recovery, viem verdict)', () => {
  it('runs natively on this machine', () => {
    expect(signatureRecovery).toBe('libsecp256k1');
  });

  it('agrees with viem on genuine, tampered, misattributed and re-encoded signatures', async () => {
    for (let i = 0; i < 40; i++) {
      const wallet = privateKeyToAccount(generatePrivateKey());
      const other = privateKeyToAccount(generatePrivateKey());
      const message = `localhost wants you to sign in with your Ethereum account:\n${wallet.address}\n\nNonce: ${i}${'x'.repeat(i * 7)}`;
      const signature = await wallet.signMessage({ message });
      await expectSameVerdict(wallet.address, message, signature, true);
      await expectSameVerdict(wallet.address.toLowerCase(), message, signature, true);
      await expectSameVerdict(other.address, message, signature, false);
      await expectSameVerdict(wallet.address, `${message} `, signature, false);
      const r = BigInt(`0x${signature.slice(2, 66)}`);
      const s = BigInt(`0x${signature.slice(66, 130)}`);
      const v = Number.parseInt(signature.slice(130), 16);
      const parity = v - 27;
      // v as y-parity (0/1) instead of 27/28: accepted by both.
      await expectSameVerdict(wallet.address, message, `0x${hex32(r)}${hex32(s)}0${parity}`, true);
      // The other parity recovers another key.
      await expectSameVerdict(wallet.address, message, `0x${hex32(r)}${hex32(s)}${(55 - v).toString(16)}`, false);
      // The high-s twin (s' = n − s with the other parity) recovers the same key: both accept it.
      await expectSameVerdict(wallet.address, message, `0x${hex32(r)}${hex32(N - s)}${(55 - v).toString(16)}`);
    }
  });

  it('agrees with viem on malformed and out-of-range signatures', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = 'sign me';
    const signature = await wallet.signMessage({ message });
    const rs = signature.slice(2, 130);
    const cases = [
      `0x${rs}1d`, // v = 29
      `0x${rs}02`,
      `0x${rs}ff`,
      `0x${'0'.repeat(64)}${rs.slice(64)}1b`, // r = 0
      `0x${rs.slice(0, 64)}${'0'.repeat(64)}1b`, // s = 0
      `0x${hex32(N)}${rs.slice(64)}1b`, // r = n
      `0x${rs.slice(0, 64)}${hex32(N)}1c`, // s = n
      `0x${'f'.repeat(64)}${rs.slice(64)}1b`, // r > n
      `0x${'f'.repeat(128)}1b`,
      `0x${rs}`, // no v
      `${signature}00`, // too long
      signature.slice(2), // no 0x
      `0x${rs.slice(0, 127)}g1b`, // not hex
    ];
    for (const bad of cases) await expectSameVerdict(wallet.address, message, bad, false);
    await expectSameVerdict('0x1234', message, signature, false);
    await expectSameVerdict('not an address', message, signature, false);
  });
});
