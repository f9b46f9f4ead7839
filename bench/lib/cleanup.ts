/**
 * Every process the bench starts is tracked, so an interrupted bench (Ctrl-C, a timeout, a crash)
 * does not leave a gateway, a redis-server or 10,000 sockets behind on a shared machine.
 */
import type { ChildProcess } from 'node:child_process';

const tracked = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  tracked.add(child);
  child.once('exit', () => tracked.delete(child));
  return child;
}

function killAll(): void {
  for (const child of tracked) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping the processes it started\n`);
    killAll();
    process.exit(130);
  });
}
