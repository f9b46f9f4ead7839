import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { RequestAuth, type Authenticator } from '../auth/authenticator.js';
import type { GatewayLimits } from '../config/limits-config.js';
import { GatewayError } from '../errors/gateway-error.js';
import { checkRateLimit, clientAddress, verifiedBucket, type RateLimitOptions } from './use-rate-limits.js';
import { Counter, SocketOperations } from './ws-limits.js';

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
export function attachGraphqlWs(server: Server, yoga: YogaServerInstance<object, object>, options: GraphqlWsOptions): { close(): Promise<void> } {
  const { authenticator, rateLimits, limits } = options;
  // The credential is kept per connection and checked again for every operation, so a revoked key
  // or an expired wallet session stops working on an open socket too.
  const headers = new WeakMap<object, string | undefined>();
  const operations = new WeakMap<object, SocketOperations>();
  const socketsPerAddress = new Counter();
  const operationsPerKey = new Counter();
  const addressOf = (req: IncomingMessage) =>
    clientAddress({ forwardedFor: req.headers['x-forwarded-for'] as string | undefined, remoteAddress: req.socket.remoteAddress }, rateLimits.trustProxy);

  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: limits.maxMessageBytes,
    verifyClient: ({ req }, accept) => {
      if (socketsPerAddress.get(addressOf(req)) >= limits.maxSocketsPerAddress) return accept(false, 429, 'Too many open sockets from this address.');
      accept(true);
    },
  });
  wss.on('connection', (socket, req) => {
    const address = addressOf(req);
    socketsPerAddress.add(address, 1);
    socket.once('close', () => socketsPerAddress.add(address, -1));
  });

  const refuse = (errors: GatewayError): GraphQLError[] => [errors];
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
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
          requestId: undefined,
        });
        if (rate.rejection) {
          const { message, retryAfter, details, nextAction } = rate.rejection.body;
          return refuse(new GatewayError(429, 'rate_limited', message, { retryAfter, details, nextAction, retryable: true }));
        }
        // ctx.subscriptions already holds this operation.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptionsPerSocket)
          return refuse(tooMany(`This socket already has ${limits.maxSubscriptionsPerSocket} open operations.`, 'socket', limits.maxSubscriptionsPerSocket));
        const key = verifiedBucket(verified);
        if (key && operationsPerKey.get(key) >= limits.maxSubscriptionsPerKey)
          return refuse(tooMany(`This credential already has ${limits.maxSubscriptionsPerKey} open operations.`, 'key', limits.maxSubscriptionsPerKey));

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
        operations.get(ctx.extra)?.start(id, key);
        return args;
      },
      onComplete: (ctx, id) => operations.get(ctx.extra)?.end(id),
      onClose: (ctx) => operations.get(ctx.extra)?.endAll(),
    },
    wss,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function tooMany(message: string, per: string, limit: number): GatewayError {
  return new GatewayError(429, 'too_many_subscriptions', message, {
    details: { per, limit },
    retryable: true,
    nextAction: 'Complete an open subscription before starting another.',
  });
}
