/** One autocannon run against one server process, with that process's CPU time and the load generator's own. */
import autocannon from 'autocannon';
import { cpuMicros } from './proc.js';

export interface LoadRun {
  /** Responses completed in the run. */
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Server CPU (user + system) per completed request, µs. */
  cpuUsPerReq: number;
  /** The load generator's CPU over the run, as a share of one core: near 1 means the client, not the server, set the pace. */
  clientCpu: number;
  /** Response bytes per second. */
  bytesPerSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export async function loadRun(
  url: string,
  pid: number,
  options: { connections: number; duration: number; headers?: Record<string, string> },
): Promise<LoadRun> {
  const cpuBefore = cpuMicros(pid);
  const clientBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.duration,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const wallUs = Number(process.hrtime.bigint() - wallBefore) / 1e3;
  const client = process.cpuUsage(clientBefore);
  const cpu = cpuMicros(pid) - cpuBefore;
  return {
    requests: result.requests.total,
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerReq: cpu / Math.max(1, result.requests.total),
    clientCpu: (client.user + client.system) / wallUs,
    bytesPerSec: result.throughput.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
