import WebSocket from 'ws';

/** A graphql-ws socket spoken by hand, so tests see each protocol message and the close code. */
export class RawGraphqlWs {
  readonly messages: { id?: string; type: string; payload?: unknown }[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }

  /** Opens a socket on /graphql; resolves when open, or with the HTTP status when the upgrade is refused. */
  static open(baseUrl: string, headers: Record<string, string> = {}): Promise<RawGraphqlWs | { refused: number }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(baseUrl.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', { headers });
      socket.once('open', () => resolve(new RawGraphqlWs(socket)));
      socket.once('unexpected-response', (_req, res) => (resolve({ refused: res.statusCode ?? 0 }), res.resume()));
      socket.once('error', reject);
    });
  }

  static async connect(baseUrl: string, payload: unknown = {}): Promise<RawGraphqlWs> {
    const ws = await RawGraphqlWs.open(baseUrl);
    if ('refused' in ws) throw new Error(`upgrade refused with ${ws.refused}`);
    ws.send({ type: 'connection_init', payload });
    await ws.until((m) => m.type === 'connection_ack');
    return ws;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  subscribe(id: string, query: string, variables?: Record<string, unknown>): void {
    this.send({ id, type: 'subscribe', payload: { query, ...(variables ? { variables } : {}) } });
  }

  /** Waits for a message matching `match` (or the close, when `match` is 'close'). */
  async until(match: ((m: RawGraphqlWs['messages'][number]) => boolean) | 'close', timeoutMs = 5_000): Promise<RawGraphqlWs['messages'][number] | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (match === 'close' ? this.closed : undefined) return undefined;
      const found = match === 'close' ? undefined : this.messages.find(match);
      if (found) return found;
      if (match !== 'close' && this.closed) throw new Error(`socket closed ${this.closed.code} ${this.closed.reason} while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
