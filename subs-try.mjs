import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
const n = Number(process.argv[2] ?? 3);
let got = 0;
for (let i = 0; i < n; i++) {
  const c = createClient({ url: 'ws://127.0.0.1:18431/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
  c.subscribe(
    { query: 'subscription { marketUpdated(asset: "BTC") { id price freshness { asOf freshnessMs } producedAt } }' },
    {
      next: (v) => {
        got++;
        if (got <= 3) console.log(i, JSON.stringify(v).slice(0, 150));
      },
      error: (e) => console.log('error', i, e?.code ?? e, e?.reason ?? JSON.stringify(e)),
      complete: () => console.log('complete', i),
    },
  );
}
setTimeout(() => {
  console.log('got', got);
  process.exit(0);
}, 4000);
