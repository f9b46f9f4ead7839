import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEV_WALLET_PRIVATE_KEY } from '../auth/key-issuer.js';
import { GatewayCallError, WalletClient } from './wallet-client.js';

const USAGE = `Usage: npm run wallet -- <command> [options]      DEVELOPMENT ONLY (refuses NODE_ENV=production)

  new                       create a local test wallet in --wallet-file and print its address
  address                   print the wallet's address
  sign-in                   nonce → EIP-4361 message → wallet session; prints the session token
  approve <approvalId>      approve an approval with a fresh signature (--session or signs in)
  approve --order f.json    preview, create the approval of that instruction and approve it
  execute --order f.json    preview, approve and execute (prints the execution)
  agent-session --api-key-id <id> --protocols p,... --actions a,... --assets A,...
            --max-order <usd> --max-period <usd> [--period-seconds 86400] [--hours 24]

Options: --url (GATEWAY_URL, default http://localhost:8080), --key 0x... (WALLET_PRIVATE_KEY),
--wallet-file (default .gateway/dev-wallet.json), --session tgws_... (else signs in).
Without a key or wallet file it signs with the demo account's wallet: Hardhat/Anvil account #0,
whose private key is public.`;

function fail(message: string): never {
  process.stderr.write(`wallet: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const list = (v: string | undefined, name: string) => (v ? v.split(',').filter(Boolean) : fail(`--${name} is required`));

function privateKey(values: { key?: string; 'wallet-file': string }): `0x${string}` {
  const key = values.key ?? process.env.WALLET_PRIVATE_KEY;
  if (key) return /^0x[0-9a-fA-F]{64}$/.test(key) ? (key as `0x${string}`) : fail('the private key must be 0x and 64 hex digits');
  if (existsSync(values['wallet-file'])) return (JSON.parse(readFileSync(values['wallet-file'], 'utf8')) as { privateKey: `0x${string}` }).privateKey;
  process.stderr.write('wallet: signing with the demo wallet (Hardhat/Anvil account #0, a PUBLIC development key)\n');
  return DEV_WALLET_PRIVATE_KEY;
}

async function main(argv: string[]): Promise<void> {
  if (process.env.NODE_ENV === 'production') fail('refusing to run with NODE_ENV=production: this helper is for development only');
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://localhost:8080' },
      key: { type: 'string' },
      'wallet-file': { type: 'string', default: '.gateway/dev-wallet.json' },
      session: { type: 'string' },
      order: { type: 'string' },
      'api-key-id': { type: 'string' },
      protocols: { type: 'string' },
      actions: { type: 'string' },
      assets: { type: 'string' },
      'max-order': { type: 'string' },
      'max-period': { type: 'string' },
      'period-seconds': { type: 'string', default: '86400' },
      hours: { type: 'string', default: '24' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) return void process.stdout.write(`${USAGE}\n`);
  if (command === 'new') {
    if (existsSync(values['wallet-file'])) fail(`${values['wallet-file']} exists; delete it first`);
    const key = generatePrivateKey();
    mkdirSync(dirname(values['wallet-file']), { recursive: true });
    writeFileSync(values['wallet-file'], JSON.stringify({ privateKey: key, address: privateKeyToAccount(key).address }, null, 2));
    chmodSync(values['wallet-file'], 0o600);
    const address = privateKeyToAccount(key).address;
    process.stdout.write(`${address}\n`);
    process.stderr.write(
      `wallet: saved in ${values['wallet-file']}; give it an account: npm run keys -- account --id me --wallet ${address} --balance USDC=100000\n`,
    );
    return;
  }
  const account = privateKeyToAccount(privateKey(values));
  if (command === 'address') return void process.stdout.write(`${account.address}\n`);
  const client = new WalletClient(values.url, account);
  const session = async () => values.session ?? (await client.signIn()).sessionToken;
  const order = () => (values.order ? (JSON.parse(readFileSync(values.order, 'utf8')) as Record<string, unknown>) : fail('--order <file.json> is required'));
  const print = (v: unknown): void => void process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  switch (command) {
    case 'sign-in':
      return void process.stdout.write(`${(await client.signIn()).sessionToken}\n`);
    case 'approve':
      return print(arg ? await client.approve(await session(), arg) : await client.previewAndApprove(await session(), order()));
    case 'execute':
      return print(await client.execute(await session(), order()));
    case 'agent-session': {
      const expiresAt = new Date(Date.now() + Number(values.hours) * 3_600_000).toISOString();
      return print(
        await client.call('POST', '/api/v1/agent-sessions', await session(), {
          apiKeyId: values['api-key-id'] ?? fail('--api-key-id is required'),
          protocols: list(values.protocols, 'protocols'),
          actions: list(values.actions, 'actions'),
          assets: list(values.assets, 'assets'),
          maxOrderNotional: values['max-order'] ?? fail('--max-order is required'),
          maxPeriodNotional: values['max-period'] ?? fail('--max-period is required'),
          periodSeconds: Number(values['period-seconds']),
          expiresAt,
        }),
      );
    }
    default:
      fail(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`wallet: ${err instanceof GatewayCallError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
