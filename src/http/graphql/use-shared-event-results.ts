import {
  createSourceEventStream,
  execute,
  getOperationAST,
  Kind,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type OperationDefinitionNode,
} from 'graphql';
import { mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { offerSharedBytes } from '../../events/direct-delivery.js';

/**
 * Subscription fields whose events carry public data only, and whose selections read nothing of
 * the subscriber (no context, no scopes): every subscriber with the same document and variables
 * gets the same result for an event, so it is executed once per event and shared. A field that
 * reads the caller (approvals, executions) must never be listed here.
 */
const PUBLIC_EVENT_FIELDS: ReadonlySet<string> = new Set(['marketUpdated', 'freshnessChanged', 'orderBookUpdated']);

type Results = Map<string, ExecutionResult | Promise<ExecutionResult>>;

const shared = new WeakSet<object>();
const serialised = new WeakMap<object, string>();
const encoded = new WeakMap<object, Buffer>();

/**
 * The JSON of a result this plugin shares between subscribers, serialised once for all of them;
 * undefined for any other result (errors, private subscriptions), which the transport serialises itself.
 */
function sharedResultJson(result: ExecutionResult): string | undefined {
  if (!shared.has(result) || result.errors) return undefined;
  let json = serialised.get(result);
  if (json === undefined) serialised.set(result, (json = JSON.stringify(result)));
  return json;
}

/** `sharedResultJson` as UTF-8 bytes, encoded once for every socket that sends it. */
export function sharedResultBytes(result: ExecutionResult): Buffer | undefined {
  let bytes = encoded.get(result);
  if (bytes !== undefined) return bytes;
  const json = sharedResultJson(result);
  if (json !== undefined) encoded.set(result, (bytes = Buffer.from(json, 'utf8')));
  return bytes;
}

/**
 * Executes a public subscription's event once per distinct (document, variables) and shares the
 * result between its subscribers, instead of once per subscriber (graphql-js and Yoga execute the
 * selection for every subscriber of every event). The source stream stays per subscriber (its
 * filter and its current state on subscribe); only the per-event execution is shared, keyed by the
 * published payload object, which the event bus hands to every subscriber as the same object.
 * Other plugins still see every result (error masking wraps the returned stream).
 */
export function useSharedEventResults(): Plugin {
  const resultsByPayload = new WeakMap<object, Results>();
  const printed = new WeakMap<DocumentNode, string>();

  const sharedSubscribe = async (args: ExecutionArgs) => {
    // The whole document (fragments included), the operation chosen and the variables.
    let text = printed.get(args.document);
    if (text === undefined) printed.set(args.document, (text = print(args.document)));
    const key = JSON.stringify([text, args.operationName ?? null, args.variableValues ?? {}]);
    const resultOf = (payload: object) => {
      let results = resultsByPayload.get(payload);
      if (!results) resultsByPayload.set(payload, (results = new Map()));
      let result = results.get(key);
      if (result === undefined) {
        const executed = execute({ ...args, rootValue: payload });
        result = 'then' in executed ? executed.then(markShared) : markShared(executed);
        results.set(key, result);
      }
      return result;
    };
    // The direct lane (graphql-ws): an event's shared bytes when its result is ready and error-free.
    if (typeof args.contextValue === 'object' && args.contextValue !== null)
      offerSharedBytes(args.contextValue, (payload) => {
        const result = resultOf(payload);
        return 'then' in result ? undefined : sharedResultBytes(result);
      });
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) return stream;
    return mapAsyncIterator(stream as AsyncIterableIterator<unknown>, (payload: unknown) =>
      typeof payload !== 'object' || payload === null ? execute({ ...args, rootValue: payload }) : resultOf(payload),
    );
  };

  return {
    onSubscribe({ args, setSubscribeFn }) {
      if (isPublicEventOperation(getOperationAST(args.document, args.operationName))) setSubscribeFn(sharedSubscribe as never);
    },
  };
}

function markShared(result: ExecutionResult): ExecutionResult {
  shared.add(result);
  // Yoga's result processors (the SSE writer among them) serialise a result with its own
  // `stringify` when it has one: so SSE too serialises a shared result once, not per subscriber.
  Object.defineProperty(result, 'stringify', {
    value: (r: unknown) => (r === result ? sharedResultJson(result) : undefined) ?? JSON.stringify(r),
    enumerable: false,
  });
  return result;
}

/** A subscription whose root selections are all plain fields of PUBLIC_EVENT_FIELDS (no fragments, no directives). */
function isPublicEventOperation(operation: OperationDefinitionNode | null | undefined): boolean {
  if (!operation || operation.operation !== 'subscription' || (operation.directives?.length ?? 0) > 0) return false;
  return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && PUBLIC_EVENT_FIELDS.has(s.name.value) && (s.directives?.length ?? 0) === 0);
}
