/** The peer process (bench/peer-server.ts): a fastify server with its log on a file descriptor of the bench's choosing. */
import type { PeerInput } from './baseline-format.js';
import { ServerProcess } from './server-process.js';

/** The peer on `input` (written to `file`), its stdout (the request log) on `stdout`; it prints its port on stderr. */
export function startPeer(input: PeerInput, file: string, stdout: number | 'ignore'): Promise<ServerProcess> {
  return ServerProcess.start({ name: 'peer server', script: 'bench/peer-server.ts', file, input, portOn: 'stderr', stdout });
}
