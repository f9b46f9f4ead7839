import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** The parts of a `ws` server socket (8.x) a direct write needs; checked at run time, never assumed. */
interface WsInternals {
  _socket?: Socket;
  _sender?: { _bufferedBytes?: number };
}

/** A socket buffering more than this is a slow consumer: its events take the ordinary path (and its bounds). */
const MAX_BUFFERED_BYTES = 1 << 20;

/** Messages shorter than this are written as one copied buffer; longer ones as a shared tail behind a small head. */
const SINGLE_WRITE_BYTES = 4096;

const tails = new WeakMap<Buffer, Buffer>();

/** The shared part of a `next` message: the result's bytes and the message's closing brace, built once per result. */
function tailOf(bytes: Buffer): Buffer {
  let tail = tails.get(bytes);
  if (!tail) {
    tail = Buffer.allocUnsafe(bytes.length + 1);
    bytes.copy(tail);
    tail[bytes.length] = 0x7d; // }
    tails.set(bytes, tail);
  }
  return tail;
}

/**
 * A writer of graphql-ws `next` messages for subscription `id` on a server socket, each one
 * unmasked, uncompressed WebSocket text frame: a small per-subscriber part (frame header and
 * `{"id":…,"type":"next","payload":`) and the shared result bytes. A message under 4 KiB is copied
 * into one buffer and written once (cheaper than a corked pair for the socket layer); a longer one
 * is handed to the TCP socket as one corked write (one `writev`) of the head and the shared tail,
 * not copied per subscriber. It declines (false, nothing written)
 * unless the socket is open, negotiated no extension (no permessage-deflate), has nothing queued
 * in `ws`' sender, buffers less than 1 MiB, and has the `ws` internals it relies on.
 */
export function nextFrameWriter(socket: WebSocket, id: string): (bytes: Buffer) => boolean {
  const head = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`, 'utf8');
  const internals = socket as unknown as WsInternals;
  return (bytes) => {
    const raw = internals._socket;
    const queued = internals._sender?._bufferedBytes;
    if (socket.readyState !== socket.OPEN || socket.extensions !== '' || !raw || typeof raw.cork !== 'function' || queued !== 0) return false;
    if (!raw.writable || raw.writableLength > MAX_BUFFERED_BYTES) return false;
    const length = head.length + bytes.length + 1;
    const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
    // A small message is copied into one buffer: one plain write is cheaper than a corked pair.
    const whole = length < SINGLE_WRITE_BYTES;
    const first = Buffer.allocUnsafe(headerLength + (whole ? length : head.length));
    first[0] = 0x81; // FIN, text
    if (headerLength === 2) first[1] = length;
    else if (headerLength === 4) {
      first[1] = 126;
      first.writeUInt16BE(length, 2);
    } else {
      first[1] = 127;
      first.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
      first.writeUInt32BE(length >>> 0, 6);
    }
    head.copy(first, headerLength);
    if (whole) {
      bytes.copy(first, headerLength + head.length);
      first[first.length - 1] = 0x7d; // }
      raw.write(first);
      return true;
    }
    const tail = tailOf(bytes);
    raw.cork();
    raw.write(first);
    raw.write(tail);
    raw.uncork();
    return true;
  };
}
