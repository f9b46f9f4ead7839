import { keccak256, toHex, type Hex } from 'viem';
import { copyState, seedState, type WorldState } from './state.js';

export interface FakeBlock {
  number: bigint;
  /** Seconds since the epoch, as a block header keeps it. */
  timestamp: bigint;
  hash: Hex;
  parentHash: Hex;
  /** The world state as of this block. */
  state: WorldState;
}

/** Blocks whose state a full node keeps (older ones answer "missing trie node"). */
const STATE_HISTORY = 128;
/** A block height of Ethereum mainnet's order, to start from. */
const FIRST_BLOCK = 21_000_000n;
const EMPTY_TRIE: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_UNCLES: Hex = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

/**
 * The fake chain: sealed blocks, each with the state it was mined with, and the pending state the
 * controls change. A change shows in calls once a block is mined after it, at that block's
 * timestamp (never earlier than the machine's clock allows, always after its parent's).
 */
export class FakeChain {
  chainId: number;
  pending: WorldState;
  private readonly blocks: FakeBlock[] = [];

  constructor(chainId: number, now = Date.now()) {
    this.chainId = chainId;
    this.pending = seedState(now);
    this.mine(now);
  }

  head(): FakeBlock {
    return this.blocks.at(-1)!;
  }

  mine(now = Date.now()): FakeBlock {
    const parent = this.blocks.at(-1);
    const number = parent ? parent.number + 1n : FIRST_BLOCK;
    const seconds = BigInt(Math.floor(now / 1000));
    const timestamp = parent && parent.timestamp >= seconds ? parent.timestamp + 1n : seconds;
    const block: FakeBlock = {
      number,
      timestamp,
      hash: keccak256(toHex(`fake block ${number}`)),
      parentHash: parent?.hash ?? keccak256(toHex('fake genesis')),
      state: copyState(this.pending),
    };
    this.blocks.push(block);
    if (this.blocks.length > STATE_HISTORY) this.blocks.shift();
    return block;
  }

  /** The block a tag names: a block, `pruned` (its state is gone), or undefined (not mined yet). */
  block(tag: unknown): FakeBlock | 'pruned' | undefined {
    if (tag === undefined || tag === 'latest' || tag === 'safe' || tag === 'finalized' || tag === 'pending') return this.head();
    if (typeof tag !== 'string' || !/^0x[0-9a-fA-F]+$/.test(tag)) return undefined;
    const number = BigInt(tag);
    if (number > this.head().number) return undefined;
    return this.blocks.find((b) => b.number === number) ?? 'pruned';
  }
}

/** A block as `eth_getBlockByNumber` answers it (transaction hashes only, none here). */
export function blockJson(b: FakeBlock): Record<string, unknown> {
  return {
    number: toHex(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    nonce: '0x0000000000000000',
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: `0x${'00'.repeat(256)}`,
    transactionsRoot: EMPTY_TRIE,
    stateRoot: keccak256(toHex(`fake state ${b.number}`)),
    receiptsRoot: EMPTY_TRIE,
    miner: '0x95222290dd7278aa3ddd389cc1e1d165cc4bafe5',
    difficulty: '0x0',
    totalDifficulty: '0xc70d815d562d3cfa955',
    extraData: '0x',
    size: '0x220',
    gasLimit: toHex(30_000_000),
    gasUsed: toHex(12_345_678),
    timestamp: toHex(b.timestamp),
    transactions: [],
    uncles: [],
    baseFeePerGas: toHex(7_000_000_000),
    mixHash: keccak256(toHex(`fake mix ${b.number}`)),
    withdrawals: [],
    withdrawalsRoot: EMPTY_TRIE,
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
    parentBeaconBlockRoot: keccak256(toHex(`fake beacon ${b.number}`)),
  };
}
