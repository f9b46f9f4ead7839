import createClient from 'openapi-fetch';
import type { components, paths } from './gateway-api.js';

type ExecutionRequest = components['schemas']['ExecutionRequest'];
type Candle = components['schemas']['Candle'];

/** What one run of the example did, for a reader (or a test) to check. */
export interface ClientRun {
  markets: string[];
  historyPages: Candle[][];
  previewExecutable: boolean;
  executionState: components['schemas']['Execution']['state'];
  /** referenceIds of the account's executions, newest first, read two a page. */
  listedReferences: string[];
}

/**
 * A client generated from the full contract (openapi-typescript types + openapi-fetch): list
 * markets, page history back in time, preview an order, execute it with an API key that holds an
 * active agent session, then list the account's executions page by page. Every path, parameter and body is type-checked.
 */
export async function runClient(baseUrl: string, apiKey: string, referenceId: string): Promise<ClientRun> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const markets = await client.GET('/api/v1/public/markets');
  if (!markets.data) throw new Error(`markets: ${markets.error?.code}`);

  // History pages back: each page asks for the points up to just before the oldest one it has.
  const historyPages: Candle[][] = [];
  let to: string | undefined;
  for (let page = 0; page < 2; page++) {
    const history = await client.GET('/api/v1/public/markets/{asset}/history', {
      params: { path: { asset: 'BTC' }, query: { resolution: '1h', limit: 24, ...(to ? { to } : {}) } },
    });
    if (!history.data) throw new Error(`history: ${history.error?.code}`);
    const points = history.data.data.points;
    historyPages.push(points);
    const oldest = points[0];
    if (!oldest) break;
    to = new Date(Date.parse(oldest.time) - 1).toISOString();
  }

  const order: ExecutionRequest = {
    protocol: 'paper-perps',
    action: 'place_order',
    assetIn: { token: 'BTC', amount: '0.01' },
    metadata: { side: 'buy', type: 'market' },
    referenceId,
  };
  const preview = await client.POST('/api/v1/execute/preview', { body: order });
  if (!preview.data) throw new Error(`preview: ${preview.error?.code}`);

  const execution = await client.POST('/api/v1/execute', { body: order });
  if (!execution.data) throw new Error(`execute: ${execution.error?.code} ${execution.error?.message}`);

  // Every execution of the account, newest first, following nextCursor to the end.
  const listedReferences: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.GET('/api/v1/execute/executions', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
    if (!page.data) throw new Error(`executions: ${page.error?.code}`);
    listedReferences.push(...page.data.data.executions.map((e) => e.referenceId));
    cursor = page.data.data.nextCursor ?? undefined;
  } while (cursor);

  return {
    listedReferences,
    markets: markets.data.data.map((m) => m.id),
    historyPages,
    previewExecutable: preview.data.executable,
    executionState: execution.data.state,
  };
}
