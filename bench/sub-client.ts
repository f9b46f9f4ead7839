/**
 * A subscription load client, started by bench/subscriptions.ts as one of several child processes
 * (IPC): it holds its share of graphql-ws or SSE subscribers to `marketUpdated` and notes, for every
 * event each subscriber receives, the publish time carried in the payload and the receipt time.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export type ClientCommand =
  | {
      type: 'open';
      url: string;
      transport: 'ws' | 'sse';
      count: number;
      query: string;
      field: string;
      localAddresses: string[];
      concurrency: number;
      /** One subscriber that is not open (connected and acknowledged, or SSE headers) by then counts as failed. */
      openTimeoutMs: number;
      /** No new subscriber is started after this many ms; the rest count as not attempted. */
      deadlineMs: number;
    }
  | { type: 'collect'; fromMs: number; toMs: number }
  | { type: 'count'; fromMs: number; toMs: number }
  | { type: 'close' };

export type ClientReport =
  | { type: 'ready'; fdLimit: number }
  | { type: 'progress'; ok: number; failed: number }
  | { type: 'count'; receipts: number; cpuUs: number }
  | { type: 'opened'; ok: number; failed: number; notAttempted: number; errors: string[]; ms: number }
  | {
      type: 'receipts';
      /** Flattened [eventAsOfMs, publishMs, receivedMs] per receipt whose publish time is in the window. */
      receipts: number[];
      /** Subscribers that received nothing in the window. */
      silent: number;
      /** This process's CPU time since it started, µs. */
      cpuUs: number;
      /** Subscribers whose connection closed or failed after opening. */
      dropped: number;
      errors: string[];
    };

interface Payload {
  freshness?: { asOf?: string; freshnessMs?: number };
  producedAt?: string | number;
}

class Subscriber {
  /** [eventAsOfMs, publishMs, receivedMs] triples. */
  readonly receipts: number[] = [];
  dropped = false;
  close: () => void = () => undefined;

  record(payload: Payload | undefined): void {
    const received = Date.now();
    const asOf = Date.parse(payload?.freshness?.asOf ?? '');
    if (!Number.isFinite(asOf)) return;
    // Publish time: a producedAt in the payload if the gateway adds one, else the freshness the
    // event was built with (asOf + freshnessMs is the `now` of the publishing ingest round).
    const produced =
      payload?.producedAt === undefined ? Number.NaN : typeof payload.producedAt === 'number' ? payload.producedAt : Date.parse(payload.producedAt);
    const published = Number.isFinite(produced) ? produced : asOf + (payload?.freshness?.freshnessMs ?? 0);
    this.receipts.push(asOf, published, received);
  }
}

const subscribers: Subscriber[] = [];
const errors: string[] = [];
const noteError = (message: string) => {
  if (errors.length < 20) errors.push(message);
};

function openWs(url: string, query: string, field: string, localAddress: string, timeoutMs: number): Promise<Subscriber> {
  const sub = new Subscriber();
  // A WebSocket bound to one source address, so many sockets do not exhaust one address's ports.
  class BoundWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { localAddress, perMessageDeflate: false, handshakeTimeout: timeoutMs });
    }
  }
  return new Promise((resolve, reject) => {
    let opened = false;
    const client: Client = createClient({
      url,
      webSocketImpl: BoundWebSocket,
      lazy: true,
      retryAttempts: 0,
      connectionAckWaitTimeout: timeoutMs,
      on: {
        connected: () => {
          opened = true;
          resolve(sub);
        },
        closed: (event) => {
          const code = (event as { code?: number } | undefined)?.code;
          if (opened) {
            sub.dropped = true;
            noteError(`ws closed after opening: ${code}`);
          } else reject(new Error(`ws closed before opening: ${code}`));
        },
      },
    });
    sub.close = () => void client.dispose();
    client.subscribe<Record<string, Payload>>(
      { query },
      {
        next: (result) => sub.record(result.data?.[field]),
        error: (err) => {
          sub.dropped = true;
          noteError(`subscription error: ${err instanceof Error ? err.message : JSON.stringify(err).slice(0, 200)}`);
          if (!opened) reject(new Error('subscription error before opening'));
        },
        complete: () => undefined,
      },
    );
  });
}

function openSse(url: string, query: string, field: string, localAddress: string, timeoutMs: number): Promise<Subscriber> {
  const sub = new Subscriber();
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        timeout: timeoutMs,
        localAddress,
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`SSE answered ${res.statusCode}`));
          res.resume();
          return;
        }
        resolve(sub);
        res.setEncoding('utf8');
        let buffered = '';
        res.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const lines = block.split('\n');
            const event = lines
              .find((l) => l.startsWith('event:'))
              ?.slice(6)
              .trim();
            const data = lines
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('\n');
            if (event === 'complete' || !data) continue;
            try {
              sub.record((JSON.parse(data) as { data?: Record<string, Payload> }).data?.[field]);
            } catch {
              noteError(`SSE data not JSON: ${data.slice(0, 100)}`);
            }
          }
        });
        const drop = () => {
          if (!closing) {
            sub.dropped = true;
            noteError('SSE stream ended');
          }
        };
        res.on('end', drop);
        res.on('error', drop);
      },
    );
    // The socket timeout guards the opening only: once the stream answers, events may be far apart.
    req.on('response', () => req.setTimeout(0));
    req.on('timeout', () => req.destroy(new Error(`SSE not answered within ${timeoutMs} ms`)));
    req.on('error', (err) => {
      if (sub.receipts.length === 0) reject(err);
      sub.dropped = true;
    });
    sub.close = () => req.destroy();
    req.end(body);
  });
}

let closing = false;

async function open(command: Extract<ClientCommand, { type: 'open' }>): Promise<ClientReport> {
  const started = Date.now();
  let next = 0;
  let ok = 0;
  let failed = 0;
  const opener = command.transport === 'ws' ? openWs : openSse;
  const progress = setInterval(() => process.send!({ type: 'progress', ok, failed } satisfies ClientReport), 5_000);
  const worker = async () => {
    while (next < command.count && Date.now() - started < command.deadlineMs) {
      const i = next++;
      try {
        subscribers.push(
          await opener(command.url, command.query, command.field, command.localAddresses[i % command.localAddresses.length]!, command.openTimeoutMs),
        );
        ok++;
      } catch (err) {
        failed++;
        noteError(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(command.concurrency, command.count) }, worker));
  clearInterval(progress);
  return { type: 'opened', ok, failed, notAttempted: command.count - next, errors: errors.splice(0), ms: Date.now() - started };
}

function collect(fromMs: number, toMs: number): ClientReport {
  const receipts: number[] = [];
  let silent = 0;
  for (const sub of subscribers) {
    let any = false;
    for (let i = 0; i < sub.receipts.length; i += 3) {
      const published = sub.receipts[i + 1]!;
      if (published < fromMs || published >= toMs) continue;
      receipts.push(sub.receipts[i]!, published, sub.receipts[i + 2]!);
      any = true;
    }
    if (!any) silent++;
  }
  return { type: 'receipts', receipts, silent, cpuUs: cpuUs(), dropped: subscribers.filter((s) => s.dropped).length, errors: errors.splice(0) };
}

function count(fromMs: number, toMs: number): ClientReport {
  let receipts = 0;
  for (const sub of subscribers) {
    for (let i = 1; i < sub.receipts.length; i += 3) if (sub.receipts[i]! >= fromMs && sub.receipts[i]! < toMs) receipts++;
  }
  return { type: 'count', receipts, cpuUs: cpuUs() };
}

function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function fdLimit(): number {
  // The soft limit this process runs with (raised to the hard limit by the parent's `ulimit -n`).
  try {
    return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
  } catch {
    return Number.NaN;
  }
}

process.on('message', (message: ClientCommand) => {
  const reply = (report: ClientReport) => process.send!(report);
  if (message.type === 'open') void open(message).then(reply);
  else if (message.type === 'collect') reply(collect(message.fromMs, message.toMs));
  else if (message.type === 'count') reply(count(message.fromMs, message.toMs));
  else {
    closing = true;
    for (const sub of subscribers) sub.close();
    setTimeout(() => process.exit(0), 200).unref();
    process.disconnect?.();
  }
});
process.send!({ type: 'ready', fdLimit: fdLimit() } satisfies ClientReport);
