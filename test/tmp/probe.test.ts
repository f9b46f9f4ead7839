import { it } from 'vitest';
import { readLimits } from '../../src/config/limits-config.js';
import { startGateway } from '../../test/support/gateway.js';
import { RawGraphqlWs } from '../../test/support/ws-raw.js';
it('probe', async () => {
  const wide = await startGateway({ limits: readLimits({ GRAPHQL_MAX_DOCUMENT_BYTES: '2000000', GRAPHQL_MAX_TOKENS: '200' }) });
  const q = `{ ${'a { '.repeat(300)}b${' }'.repeat(300)} }`;
  const res = await wide.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
  console.log(res.status, await res.text());
  const ws = await RawGraphqlWs.connect(wide.baseUrl);
  ws.subscribe('ok', '{ status { data { overall } } }');
  console.log(JSON.stringify(await ws.until((m) => m.id === 'ok')));
  await wide.close();
});
