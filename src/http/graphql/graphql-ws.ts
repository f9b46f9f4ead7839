import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { RequestAuth, type Authenticator } from '../../auth/authenticator.js';
import { sharedResultBytes } from './use-shared-event-results.js';
import type { GatewayLimits } from '../../config/limits-config.js';
import { tooManySubscriptions } from '../../errors/availability-refusals.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import { checkRateLimit, clientAddress, verifiedBucket, type RateLimitOptions } from '../pipeline/rate-limits.js';
import { Counter, SocketOperations } from './ws-limits.js';
import { nextFrameWriter } from './ws-next-frames.js';
import { offerDirectWrite } from '../../events/direct-delivery.js';

type Enveloped = ReturnType<YogaServerInstance<object, object>['getEnveloped']>;

export interface GraphqlWsOptions {
  authenticator: Authenticator;
  /** The HTTP policies: each operation counts as one request of its verified key or client address. */
  rateLimits: RateLimitOptions;
  limits: GatewayLimits['ws'];
}

/**
 * graphql-ws on the GraphQL endpoint, executing through Yoga's envelop (same schema, context,
 * scopes, GraphQL limits). The credential comes from `connectionParams.authorization` or the
 * upgrade request's header: one that is sent but invalid closes the connection, and every
 * operation re-checks it. Bounded: message size, sockets per address (429 on upgrade),
 * `connection_init` payload (4403), operations per socket and per key, and the rate limits.
 */
export function attachGraphqlWs(
  server: Server,
  yoga: YogaServerInstance<object, object>,
  options: GraphqlWsOptions,
): { close(): Promise<void>; openSockets(): number } {
  const { authenticator, rateLimits, limits } = options;
  // The credential is kept per connection and checked again for every operation, so a revoked key
  // or an expired wallet session stops working on an open socket too.
  const headers = new WeakMap<object, string | undefined>();
  const operations = new WeakMap<object, SocketOperations>();
  const socketsPerAddress = new Counter();
  const operationsPerKey = new Counter();
  const addressOf = (req: IncomingMessage) =>
    clientAddress({ forwardedFor: req.headers['x-forwarded-for'] as string | undefined, remoteAddress: req.socket.remoteAddress }, rateLimits.trustProxy);

  // Upgrades are taken from the server by hand (noServer): attached with `server`, ws would re-emit
  // the server's own errors (a port in use) as WebSocket server errors.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    verifyClient: ({ req }, accept) => {
      if (socketsPerAddress.get(addressOf(req)) >= limits.maxSocketsPerAddress) return accept(false, 429, 'Too many open sockets from this address.');
      accept(true);
    },
  });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== yoga.graphqlEndpoint) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  // Registered before graphql-ws's own listener, so every socket splices shared results (below).
  const pending = new WeakMap<object, Map<string, Buffer>>();
  wss.on('connection', (socket, req) => {
    const address = addressOf(req);
    socketsPerAddress.add(address, 1);
    socket.once('close', () => socketsPerAddress.add(address, -1));
    spliceSharedResults(socket, pending);
  });

  const refuse = (errors: GatewayError): GraphQLError[] => [errors];
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      // A result shared by every subscriber of a public event is serialised and encoded once (not
      // once per subscriber): graphql-ws is handed a short token as the payload, and the socket's
      // send puts the shared bytes in its place.
      onNext: (ctx, id, _payload, _args, result) => {
        const bytes = sharedResultBytes(result);
        if (bytes === undefined) return;
        let tokens = pending.get(ctx.extra.socket);
        if (!tokens) pending.set(ctx.extra.socket, (tokens = new Map()));
        tokens.set(JSON.stringify(id), bytes);
        return { [SHARED_TOKEN]: true } as never;
      },
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onConnect: async (ctx) => {
        if (Buffer.byteLength(JSON.stringify(ctx.connectionParams ?? {}), 'utf8') > limits.maxInitPayloadBytes) return false;
        const fromParams = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const header = typeof fromParams === 'string' ? fromParams : ctx.extra.request.headers.authorization;
        if (header !== undefined && (await new RequestAuth(authenticator, header).resolve()).kind === 'anonymous') return false;
        headers.set(ctx.extra, header);
        operations.set(ctx.extra, new SocketOperations(operationsPerKey));
        return true;
      },
      onSubscribe: async (ctx, id, payload) => {
        const auth = new RequestAuth(authenticator, headers.get(ctx.extra));
        // An identity store outage: counted as the address here; the operation's own check fails closed.
        const verified = auth.header === undefined ? undefined : await auth.resolve().catch(() => undefined);
        const request = ctx.extra.request;
        const rate = await checkRateLimit(rateLimits, {
          isPublic: false,
          verified,
          forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
          remoteAddress: request.socket.remoteAddress,
        });
        if (rate.rejection) return refuse(rate.rejection);
        // ctx.subscriptions already holds this operation.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptionsPerSocket)
          return refuse(
            tooManySubscriptions(`This socket already has ${limits.maxSubscriptionsPerSocket} open operations.`, 'socket', limits.maxSubscriptionsPerSocket),
          );
        const key = verifiedBucket(verified);
        if (key && operationsPerKey.get(key) >= limits.maxSubscriptionsPerKey)
          return refuse(
            tooManySubscriptions(`This credential already has ${limits.maxSubscriptionsPerKey} open operations.`, 'key', limits.maxSubscriptionsPerKey),
          );

        const enveloped = yoga.getEnveloped({ ...ctx, req: request, socket: ctx.extra.socket, params: payload, auth });
        // A syntax error or a refused document answers this operation with an `error` message; the socket stays open.
        let document: DocumentNode;
        try {
          document = enveloped.parse(payload.query);
          const errors = enveloped.validate(enveloped.schema, document);
          if (errors.length > 0) return errors;
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('The operation could not be read.')];
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName ?? null,
          document,
          variableValues: payload.variables ?? null,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
        // Shared public events skip graphql-ws' per-message chain when they can (events/direct-delivery.ts).
        offerDirectWrite(args.contextValue as object, nextFrameWriter(ctx.extra.socket, id));
        operations.get(ctx.extra)?.start(id, key);
        return args;
      },
      onComplete: (ctx, id) => operations.get(ctx.extra)?.end(id),
      onClose: (ctx) => operations.get(ctx.extra)?.endAll(),
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
const TOKEN_PAYLOAD = `{"${SHARED_TOKEN}":true}}`;
const TOKEN_TAIL = `,"type":"next","payload":${TOKEN_PAYLOAD}`;
const CLOSING_BRACE = Buffer.from('}');

/**
 * Replaces a token payload with the shared bytes noted for that subscription id on this socket:
 * the message is graphql-ws's own text up to `"payload":`, the shared bytes and `}`, sent as one
 * text frame (the shared part is neither copied into a string nor encoded again per subscriber).
 */
function spliceSharedResults(socket: WebSocket, pending: WeakMap<object, Map<string, Buffer>>): void {
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  socket.send = ((data: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string' && data.startsWith('{"id":') && data.endsWith(TOKEN_TAIL)) {
      const idJson = data.slice(6, -TOKEN_TAIL.length); // data starts with {"id":
      const tokens = pending.get(socket);
      const bytes = tokens?.get(idJson);
      if (bytes !== undefined) {
        tokens!.delete(idJson);
        const head = Buffer.from(data.slice(0, -TOKEN_PAYLOAD.length), 'utf8');
        return send(
          Buffer.concat([head, bytes, CLOSING_BRACE]),
          { binary: false },
          rest.find((r) => typeof r === 'function'),
        );
      }
    }
    return send(data, ...rest);
  }) as typeof socket.send;
}
