import { parseArgs } from 'node:util';
import { issueApiKey } from '../auth/key-issuer.js';
import { SCOPES, type Scope } from '../auth/identity.js';
import { loadConfig } from '../config/gateway-config.js';
import { openIdentityStoreForCli } from '../stores/open-identity-store.js';
import { isWalletAddress } from '../domain/validators.js';

const USAGE = `Usage: npm run keys -- <command> [options]

  create  --account <id> [--scopes data:read,execute:preview,execute:live] [--label <text>]
          Issues a key and prints it once; only its SHA-256 is stored.
  list    [--account <id>]
  revoke  <keyId>
          Takes effect on the gateway's next request.
  account --id <id> --wallet <0x address> [--balance TOKEN=AMOUNT ...]
          Creates or updates a paper account.

Uses the same store as the running gateway: Redis when REDIS_URL is set (with the fleet's
REDIS_KEY_PREFIX, which must then be set explicitly), else GATEWAY_DATA_DIR (default .gateway).
Every command names the store it used on stderr.`;

function fail(message: string): never {
  process.stderr.write(`keys: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      scopes: { type: 'string' },
      label: { type: 'string' },
      id: { type: 'string' },
      wallet: { type: 'string' },
      balance: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  if (!config.redisUrl && !config.dataDir) fail('GATEWAY_DATA_DIR is not set');
  // A key written under another prefix than the fleet's is invisible to it: never guess the prefix.
  if (config.redisUrl && !process.env.REDIS_KEY_PREFIX)
    fail(`REDIS_URL is set but REDIS_KEY_PREFIX is not: set the prefix the gateways use (their default is ${config.redisKeyPrefix})`);
  process.stderr.write(`keys: store ${storeName(config)}\n`);
  const { store, close } = await openIdentityStoreForCli(config);
  const now = new Date().toISOString();

  try {
    switch (command) {
      case 'create': {
        if (!values.account) fail('create needs --account');
        const scopes = (values.scopes ?? SCOPES.join(',')).split(',').map((s) => s.trim());
        const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
        if (unknown.length) fail(`unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`);
        const { secret, record } = await issueApiKey(store, values.account, scopes as Scope[], values.label ?? null, now).catch((e: Error) => fail(e.message));
        process.stdout.write(`${JSON.stringify({ id: record.id, accountId: record.accountId, scopes: record.scopes, key: secret })}\n`);
        process.stderr.write('Store this key now: it is not shown again.\n');
        return;
      }
      case 'list': {
        const keys = await store.listKeys(values.account);
        for (const k of keys)
          process.stdout.write(
            `${JSON.stringify({ id: k.id, accountId: k.accountId, scopes: k.scopes, revoked: k.revoked, label: k.label, createdAt: k.createdAt })}\n`,
          );
        return;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) fail('revoke needs a key id');
        const key = await store.revokeKey(id, now);
        if (!key) fail(`no key ${id}`);
        process.stdout.write(`${JSON.stringify({ id: key.id, revoked: true, revokedAt: key.revokedAt })}\n`);
        return;
      }
      case 'account': {
        if (!values.id || !values.wallet) fail('account needs --id and --wallet');
        if (!isWalletAddress(values.wallet)) fail('--wallet must be a 0x-prefixed 20-byte hex address');
        const balances: Record<string, string> = {};
        for (const b of values.balance ?? []) {
          const m = /^([A-Za-z0-9]+)=(\d+(\.\d+)?)$/.exec(b);
          if (!m) fail(`--balance ${b}: expected TOKEN=AMOUNT`);
          balances[m[1]!] = m[2]!;
        }
        const existing = await store.getAccount(values.id);
        await store.putAccount({
          id: values.id,
          wallet: values.wallet,
          balances: { ...existing?.balances, ...balances },
          createdAt: existing?.createdAt ?? now,
        });
        process.stdout.write(`${JSON.stringify({ id: values.id, wallet: values.wallet })}\n`);
        return;
      }
      default:
        fail(`unknown command ${command}`);
    }
  } finally {
    await close();
  }
}

/** Where the CLI reads and writes, without credentials. */
function storeName(config: ReturnType<typeof loadConfig>): string {
  if (!config.redisUrl) return `SQLite ${config.dataDir}/gateway.db`;
  const url = new URL(config.redisUrl);
  url.username = '';
  url.password = '';
  return `Redis ${url.toString()} prefix ${config.redisKeyPrefix}`;
}

main(process.argv.slice(2)).catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
