import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/config/logger.js';
import { hyperliquidSettings } from '../../src/venues/hyperliquid/hyperliquid-settings.js';
import { hyperliquid } from '../../src/venues/hyperliquid/hyperliquid-venue.js';

/** Hyperliquid's order variables: where the API wallet's key comes from, and where it never goes. */
const key = generatePrivateKey();
const agent = privateKeyToAccount(key);
const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const orders = { HYPERLIQUID_NETWORK: 'testnet', HYPERLIQUID_ACCOUNT: ACCOUNT, HYPERLIQUID_ORDERS_ACCOUNT: 'acct-1' };
const common = { simulatedMarkets: 10, simulatedFaults: {} };

function refusal(env: Record<string, string>): string {
  try {
    hyperliquidSettings(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the settings to be refused');
}

describe('the API wallet key', () => {
  it('turns orders on (testnet by default: the network the data reads); the settings hold a signer, never the key', () => {
    const settings = hyperliquidSettings({ ...orders, HYPERLIQUID_AGENT_KEY: key })!;
    expect(settings.orders).toMatchObject({ account: ACCOUNT, boundAccount: 'acct-1' });
    expect(settings.orders!.signer.address).toBe(agent.address);
    const shown = JSON.stringify(settings, (_k, v) => (v instanceof Set ? [...v] : v));
    expect(shown).not.toContain(key.slice(2));
    expect(shown.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
    expect(hyperliquidSettings({ HYPERLIQUID_NETWORK: 'testnet' })!.orders).toBeUndefined();
  });

  it('is read from a file at start, trimmed; both ways at once is an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-hl-key-'));
    const file = join(dir, 'agent.key');
    writeFileSync(file, `  ${key}\n`);
    expect(hyperliquidSettings({ ...orders, HYPERLIQUID_AGENT_KEY_FILE: file })!.orders!.signer.address).toBe(agent.address);
    expect(refusal({ ...orders, HYPERLIQUID_AGENT_KEY_FILE: file, HYPERLIQUID_AGENT_KEY: key })).toMatch(/both set/);
    expect(refusal({ ...orders, HYPERLIQUID_AGENT_KEY_FILE: join(dir, 'missing') })).toMatch(/HYPERLIQUID_AGENT_KEY_FILE cannot be read \(ENOENT\)/);
  });

  it('a malformed key stops the start without ever echoing it', () => {
    for (const bad of [key.slice(0, 60), `${key}00`, key.slice(2), `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`, `${key.slice(0, 64)}zz`]) {
      const message = refusal({ ...orders, HYPERLIQUID_AGENT_KEY: bad });
      expect(message).toMatch(/HYPERLIQUID_AGENT_KEY must hold the API wallet's private key/);
      expect(message).not.toContain(bad.slice(2, 20));
    }
    const dir = mkdtempSync(join(tmpdir(), 'gw-hl-key-'));
    writeFileSync(join(dir, 'bad.key'), key.slice(0, 50));
    const fromFile = refusal({ ...orders, HYPERLIQUID_AGENT_KEY_FILE: join(dir, 'bad.key') });
    expect(fromFile).toMatch(/HYPERLIQUID_AGENT_KEY_FILE must hold/);
    expect(fromFile).not.toContain(key.slice(2, 20));
  });

  it('needs the master account and the gateway account; those without a key are a mistake', () => {
    expect(refusal({ HYPERLIQUID_NETWORK: 'testnet', HYPERLIQUID_AGENT_KEY: key, HYPERLIQUID_ORDERS_ACCOUNT: 'acct-1' })).toMatch(
      /HYPERLIQUID_ACCOUNT is required/,
    );
    expect(refusal({ HYPERLIQUID_NETWORK: 'testnet', HYPERLIQUID_AGENT_KEY: key, HYPERLIQUID_ACCOUNT: ACCOUNT })).toMatch(
      /HYPERLIQUID_ORDERS_ACCOUNT is required/,
    );
    expect(refusal({ ...orders, HYPERLIQUID_AGENT_KEY: key, HYPERLIQUID_ACCOUNT: 'acct' })).toMatch(/HYPERLIQUID_ACCOUNT: expected an address/);
    expect(refusal({ ...orders })).toMatch(/HYPERLIQUID_ACCOUNT is set but HYPERLIQUID_AGENT_KEY/);
    expect(refusal({ HYPERLIQUID_AGENT_KEY: key })).toMatch(/HYPERLIQUID_AGENT_KEY is set but HYPERLIQUID_NETWORK is not/);
  });

  it('mainnet orders only with HYPERLIQUID_MAINNET_ORDERS=yes', () => {
    const mainnet = { ...orders, HYPERLIQUID_NETWORK: 'mainnet', HYPERLIQUID_AGENT_KEY: key };
    expect(refusal(mainnet)).toMatch(/real orders with real funds: set HYPERLIQUID_MAINNET_ORDERS=yes/);
    expect(refusal({ ...mainnet, HYPERLIQUID_MAINNET_ORDERS: 'true' })).toMatch(/HYPERLIQUID_MAINNET_ORDERS: expected yes/);
    expect(hyperliquidSettings({ ...mainnet, HYPERLIQUID_MAINNET_ORDERS: 'yes' })!.orders).toBeDefined();
    // Mainnet data alone needs no such setting.
    expect(hyperliquidSettings({ HYPERLIQUID_NETWORK: 'mainnet' })!.orders).toBeUndefined();
  });

  it('the venue says where orders go and for which account (public), never the key', () => {
    const venue = hyperliquid.configure({ ...orders, HYPERLIQUID_AGENT_KEY: key }, common)!;
    expect(venue.description).toMatchObject({ network: 'testnet', orders: 'testnet', account: ACCOUNT });
    expect(venue.protocols[0]!.name).toBe('Hyperliquid perpetuals (testnet data, testnet orders)');
    expect(JSON.stringify(venue.description)).not.toContain(key.slice(2));
    const paper = hyperliquid.configure({ HYPERLIQUID_NETWORK: 'mainnet' }, common)!;
    expect(paper.protocols[0]!.name).toBe('Hyperliquid perpetuals (mainnet data, paper execution)');
    expect(paper.description.orders).toBeUndefined();
    expect(hyperliquid.variables).toEqual(
      expect.arrayContaining(['HYPERLIQUID_AGENT_KEY', 'HYPERLIQUID_AGENT_KEY_FILE', 'HYPERLIQUID_ACCOUNT', 'HYPERLIQUID_ORDERS_ACCOUNT']),
    );
  });

  it('the gateway logger censors credential fields, should the environment or a config ever be logged', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = pino(loggerOptions('info'), sink);
    logger.info({ HYPERLIQUID_AGENT_KEY: key }, 'top level');
    logger.info({ env: { HYPERLIQUID_AGENT_KEY: key } }, 'one level down');
    logger.info({ config: { venueEnv: { HYPERLIQUID_AGENT_KEY: key, HYPERLIQUID_NETWORK: 'testnet' } } }, 'the configuration');
    logger.info({ venueEnv: { HYPERLIQUID_AGENT_KEY: key } }, 'its environment');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toContain(key.slice(2));
      expect(line).toContain('[redacted]');
    }
    expect(lines[2]).toContain('"HYPERLIQUID_NETWORK":"testnet"');
  });
});
