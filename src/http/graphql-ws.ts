import type { Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { RequestAuth, type Authenticator } from '../auth/authenticator.js';
import { sharedResultJson } from './use-shared-event-results.js';

type Enveloped = ReturnType<YogaServerInstance<object, object>['getEnveloped']>;

/**
 * graphql-ws on the GraphQL endpoint, executing through Yoga's envelop (same schema, context,
 * scopes). The credential comes from `connectionParams.authorization` or the upgrade request's
 * header: one that is sent but invalid closes the connection, and every operation re-checks it.
 */
export function attachGraphqlWs(
  server: Server,
  yoga: YogaServerInstance<object, object>,
  authenticator: Authenticator,
): { close(): Promise<void>; openSockets(): number } {
  // The credential is kept per connection and checked again for every operation, so a revoked key
  // or an expired wallet session stops working on an open socket too.
  const headers = new WeakMap<object, string | undefined>();
  // Upgrades are taken from the server by hand (noServer): attached with `server`, ws would re-emit
  // the server's own errors (a port in use) as WebSocket server errors.
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== yoga.graphqlEndpoint) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  // Registered before graphql-ws's own listener, so every socket splices shared results (below).
  const pending = new WeakMap<object, Map<string, string>>();
  wss.on('connection', (socket) => spliceSharedResults(socket, pending));
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      // A result shared by every subscriber of a public event is serialised once (not once per
      // subscriber): graphql-ws is handed a short token as the payload, and the socket's send puts
      // the shared JSON in its place.
      onNext: (ctx, id, _payload, _args, result) => {
        const json = sharedResultJson(result);
        if (json === undefined) return;
        let tokens = pending.get(ctx.extra.socket);
        if (!tokens) pending.set(ctx.extra.socket, (tokens = new Map()));
        tokens.set(id, json);
        return { [SHARED_TOKEN]: true } as never;
      },
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onConnect: async (ctx) => {
        const fromParams = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const header = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
        if (header !== undefined && (await new RequestAuth(authenticator, header).resolve()).kind === 'anonymous') return false;
        headers.set(ctx.extra, header);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const auth = new RequestAuth(authenticator, headers.get(ctx.extra));
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: payload, auth });
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName ?? null,
          document: enveloped.parse(payload.query),
          variableValues: payload.variables ?? null,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wss,
  );
  return {
    openSockets: () => wss.clients.size,
    /** Closes every socket with 1001 (going away), then the server. */
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** What a token payload serialises to: graphql-ws writes `{"id":…,"type":"next","payload":{"@shared":true}}`. */
const SHARED_TOKEN = '@shared';
const TOKEN_TAIL = `,"type":"next","payload":{"${SHARED_TOKEN}":true}}`;

/** Replaces a token payload with the shared JSON noted for that subscription id on this socket. */
function spliceSharedResults(socket: WebSocket, pending: WeakMap<object, Map<string, string>>): void {
  const send = socket.send.bind(socket);
  socket.send = ((data: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string' && data.startsWith('{"id":') && data.endsWith(TOKEN_TAIL)) {
      const id = JSON.parse(data.slice(6, -TOKEN_TAIL.length)) as string; // data starts with {"id":
      const json = pending.get(socket)?.get(id);
      if (json !== undefined) {
        pending.get(socket)!.delete(id);
        data = `{"id":${JSON.stringify(id)},"type":"next","payload":${json}}`;
      }
    }
    return (send as (...args: unknown[]) => void)(data, ...rest);
  }) as typeof socket.send;
}
