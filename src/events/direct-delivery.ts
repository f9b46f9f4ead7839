/**
 * The direct lane of one subscription (one GraphQL context): how a shared public event reaches a
 * graphql-ws subscriber without its per-message promise chain (source iterator → result maps →
 * graphql-ws' `for await` → `onNext` → `send`). The shared-results plugin says which bytes an
 * event's result is; the graphql-ws edge says how to write them as that subscriber's `next`
 * message. A subscription uses the lane only while its ordinary chain is idle (waiting for the
 * next event), so messages stay in order; when either side declines, the event takes the chain.
 */
interface DirectLane {
  /** The shared, encoded result of this subscription for an event; undefined when there is none (yet). */
  bytesOf?: (payload: object) => Buffer | undefined;
  /** Writes a `next` message carrying `bytes`; false when it cannot (then nothing was written). */
  write?: (bytes: Buffer) => boolean;
}

const lanes = new WeakMap<object, DirectLane>();

function lane(context: object): DirectLane {
  let found = lanes.get(context);
  if (!found) lanes.set(context, (found = {}));
  return found;
}

/** Called by the shared-results plugin for a subscription whose event results are shared. */
export function offerSharedBytes(context: object, bytesOf: (payload: object) => Buffer | undefined): void {
  lane(context).bytesOf = bytesOf;
}

/** Called by the graphql-ws edge for a subscription it serves. */
export function offerDirectWrite(context: object, write: (bytes: Buffer) => boolean): void {
  lane(context).write = write;
}

/**
 * Delivers `payload` through the lane of `context` when it has both sides and the result is ready
 * and shared: true when the message was written. Call only while the subscription's ordinary
 * chain holds nothing undelivered.
 */
export function deliverDirect(context: object, payload: unknown): boolean {
  const found = lanes.get(context);
  if (!found?.write || !found.bytesOf || typeof payload !== 'object' || payload === null) return false;
  // Runs inside the event's publisher: a result that cannot be built here takes the ordinary chain,
  // which reports it to this subscriber alone, and a socket that throws on write is gone anyway.
  let bytes: Buffer | undefined;
  try {
    bytes = found.bytesOf(payload);
  } catch {
    return false;
  }
  if (bytes === undefined) return false;
  try {
    return found.write(bytes);
  } catch {
    return true;
  }
}
