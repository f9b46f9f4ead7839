import { randomUUID } from 'node:crypto';

const CLIENT_REQUEST_ID = /^[\w.-]{8,64}$/;

/** A client's own request id is echoed when it is sane; otherwise the gateway makes one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}
