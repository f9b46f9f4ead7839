import type { Server } from 'node:http';

/** Listens, resolving once bound; a refusal (port in use, no permission, bad host) rejects with a line naming the setting. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new Error(listenProblem(err, port, host)));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function listenProblem(err: NodeJS.ErrnoException, port: number, host: string): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `PORT ${port}: ${host}:${port} is already in use by another process; stop it or set PORT to a free port`;
    case 'EACCES':
      return `PORT ${port}: no permission to listen on ${host}:${port}; use a port above 1023 or grant the capability`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `HOST ${host}: not an address of this machine (${err.code})`;
    default:
      return `cannot listen on ${host}:${port}: ${err.message}`;
  }
}
