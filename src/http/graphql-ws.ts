import type { Server } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { RequestAuth, type Authenticator } from '../auth/authenticator.js';

type Enveloped = ReturnType<YogaServerInstance<object, object>['getEnveloped']>;

/**
 * graphql-ws on the GraphQL endpoint, executing through Yoga's envelop (same schema, context,
 * scopes). The credential comes from `connectionParams.authorization` or the upgrade request's
 * header: one that is sent but invalid closes the connection, and every operation re-checks it.
 */
export function attachGraphqlWs(server: Server, yoga: YogaServerInstance<object, object>, authenticator: Authenticator): { close(): Promise<void> } {
  // The credential is kept per connection and checked again for every operation, so a revoked key
  // or an expired wallet session stops working on an open socket too.
  const headers = new WeakMap<object, string | undefined>();
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
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
        return args;
      },
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
