import { createClient, type Client } from 'graphql-ws';
import type { TypedOperation } from './operations.js';

/** Talks only to /graphql: queries over HTTP POST, subscriptions over graphql-ws on the same path. */
export class GatewayClient {
  private readonly ws: Client;

  constructor(
    private readonly apiKey: string | undefined,
    onConnection: (state: 'connected' | 'closed') => void,
  ) {
    const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
    this.ws = createClient({
      url,
      lazy: false,
      retryAttempts: Infinity,
      shouldRetry: () => true,
      connectionParams: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      on: { connected: () => onConnection('connected'), closed: () => onConnection('closed') },
    });
  }

  async query<R, V>(operation: TypedOperation<R, V>, variables?: V): Promise<R> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: operation.toString(), variables }) });
    const body = (await res.json()) as { data?: R; errors?: { message: string }[] };
    if (body.errors?.length || !body.data) throw new Error(body.errors?.[0]?.message ?? `HTTP ${res.status}`);
    return body.data;
  }

  /** Returns the unsubscribe function. */
  subscribe<R, V>(operation: TypedOperation<R, V>, variables: V | undefined, onData: (data: R) => void): () => void {
    return this.ws.subscribe<R>(
      { query: operation.toString(), variables: variables as Record<string, unknown> | undefined },
      {
        next: (result) => result.data && onData(result.data),
        error: (err) => console.warn('subscription ended', err),
        complete: () => undefined,
      },
    );
  }

  dispose(): void {
    void this.ws.dispose();
  }
}
