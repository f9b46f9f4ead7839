import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** executionUpdated over a real graphql-ws client, subscribed when it returns: the events as they arrive, and how to close. */
export async function followExecutions(baseUrl: string, bearer: string, selection: string): Promise<{ events: any[]; close: () => Promise<void> }> {
  const events: any[] = [];
  const client = createClient({
    url: baseUrl.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${bearer}` },
  });
  const done = new Promise<void>((resolve, reject) =>
    client.subscribe(
      { query: `subscription { executionUpdated { ${selection} } }` },
      { next: (m) => void events.push((m.data as any)?.executionUpdated), error: reject, complete: resolve },
    ),
  );
  await new Promise((r) => setTimeout(r, 200));
  return {
    events,
    close: async () => {
      await client.dispose();
      await done.catch(() => undefined);
    },
  };
}
