import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordHyperliquid } from '../venues/hyperliquid/replay/recorder.js';

const USAGE = `Usage: npm run record -- <venue> [options]

  hyperliquid  [--network mainnet|testnet] [--coins BTC,ETH,SOL] [--out recordings/hyperliquid]
               [--api-url URL] [--weight-per-minute 600] [--overwrite]
               Asks Hyperliquid's public info API (no key) for what the replay serves: the
               universe and its contexts, mids, spot contexts, and per coin its book, 1m/1h/1d
               candles and 30 days of funding. Each answer is written as one JSON recording in
               the fixtures' format ({source, request, status, response}), paced within the
               weight per minute (the venue allows 1,200 per IP).

Replay what was recorded: GATEWAY_REPLAY=recordings npm start (the folder holding hyperliquid/).
Needs the internet (the venue's API); --api-url points it at another host, such as a local fake.`;

const NETWORKS = { mainnet: 'https://api.hyperliquid.xyz', testnet: 'https://api.hyperliquid-testnet.xyz' } as const;

function fail(message: string): never {
  process.stderr.write(`record: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      network: { type: 'string', default: 'mainnet' },
      coins: { type: 'string', default: 'BTC,ETH,SOL' },
      out: { type: 'string' },
      'api-url': { type: 'string' },
      'weight-per-minute': { type: 'string', default: '600' },
      overwrite: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [venue, ...rest] = positionals;
  if (venue !== 'hyperliquid') fail(venue ? `cannot record ${venue}: the recordable venue is hyperliquid` : 'name the venue to record');
  if (rest.length > 0) fail(`unexpected ${rest.join(' ')}`);
  const network = values.network;
  if (network !== 'mainnet' && network !== 'testnet') fail(`--network must be mainnet or testnet, not ${network}`);
  const coins = values.coins.split(',').map((c) => c.trim());
  if (coins.some((c) => !/^[\w-]+$/.test(c))) fail('--coins must be coins separated by commas, such as BTC,ETH');
  const weightPerMinute = Number(values['weight-per-minute']);
  if (!Number.isInteger(weightPerMinute) || weightPerMinute < 60 || weightPerMinute > 1_200)
    fail('--weight-per-minute must be an integer from 60 to 1200 (the venue allows 1,200 per IP)');
  const apiUrl = values['api-url'] ?? NETWORKS[network];
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol)) fail(`--api-url must be an http(s) URL, not ${apiUrl}`);
  const outDir = resolve(values.out ?? 'recordings/hyperliquid');
  process.stderr.write(`record: hyperliquid ${network} from ${new URL(apiUrl).host} into ${outDir} (${coins.join(', ')})\n`);
  try {
    const files = await recordHyperliquid({
      apiUrl,
      network,
      coins,
      outDir,
      weightPerMinute,
      overwrite: values.overwrite,
      progress: (line) => process.stderr.write(`record: ${line}\n`),
    });
    process.stderr.write(`record: ${files.length} recordings written; replay them with GATEWAY_REPLAY=${resolve(outDir, '..')} npm start\n`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const exists = (err as { code?: string }).code === 'EEXIST';
    process.stderr.write(`record: ${exists ? `${message} (pass --overwrite to replace what is there)` : `failed: ${message}`}\n`);
    process.exit(1);
  }
}

await main(process.argv.slice(2));
