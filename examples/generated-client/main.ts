import { runClient } from './client.js';

// npx tsx examples/generated-client/main.ts   (GATEWAY_URL, GATEWAY_KEY: a key with an agent session)
const run = await runClient(process.env.GATEWAY_URL ?? 'http://localhost:8080', process.env.GATEWAY_KEY ?? '', `client-${Date.now()}`);
console.log(JSON.stringify(run, null, 2));
