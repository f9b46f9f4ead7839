import type { WebSocket } from 'ws';

/** A socket buffering more than this is a slow consumer: its events take the ordinary path (and its bounds). */
const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * A writer of graphql-ws `next` messages for subscription `id` on a server socket, through `ws`'
 * public send (its own framing and queue, so messages stay in order with every other send): the
 * small per-subscriber head (`{"id":…,"type":"next","payload":`), the shared result bytes and the
 * closing brace, as one text message. It declines (false, nothing sent) unless the socket is open,
 * negotiated no extension (a deflating socket compresses per message: it takes the ordinary path),
 * and buffers less than 1 MiB.
 */
export function nextFrameWriter(socket: WebSocket, id: string): (bytes: Buffer) => boolean {
  const head = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`, 'utf8');
  return (bytes) => {
    if (socket.readyState !== socket.OPEN || socket.extensions !== '' || socket.bufferedAmount > MAX_BUFFERED_BYTES) return false;
    const message = Buffer.allocUnsafe(head.length + bytes.length + 1);
    head.copy(message);
    bytes.copy(message, head.length);
    message[message.length - 1] = 0x7d; // }
    socket.send(message, { binary: false });
    return true;
  };
}
