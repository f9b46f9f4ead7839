import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorResponse } from '../errors/error-response.js';
import { runInScope } from './request-scope.js';

export const MCP_PATH = '/mcp';

/** A workflow node as GET /api/v1/workflow-nodes serves it. */
interface WorkflowNode {
  id: string;
  kind: string;
  title: string;
  description: string;
  route: { method: string; path: string } | null;
  available: boolean;
  blockedBy: { gate: string; reason: string }[];
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

/** The gateway's REST handlers, called in-process (Yoga's fetch: the contract guard, rate limits, Sofa). */
type RestFetch = (url: string, init: RequestInit) => Promise<Response> | Response;

const withoutDialect = ({ $schema: _dialect, ...schema }: Record<string, unknown>) => schema;

/** MCP output schemas describe an object: envelopes (an allOf) are objects; a list result gets none. */
function outputSchemaOf(schema: Record<string, unknown>): Tool['outputSchema'] | undefined {
  const s = withoutDialect(schema);
  if (s.type === 'object') return s as Tool['outputSchema'];
  if (s.type === undefined && Array.isArray(s.allOf)) return { ...s, type: 'object' } as Tool['outputSchema'];
  return undefined;
}
const toolName = (node: WorkflowNode) => node.id.slice(node.id.indexOf('.') + 1);

/**
 * A Model Context Protocol endpoint (Streamable HTTP, stateless): its tools are the caller's
 * workflow nodes that have a route (reads, preview, approval and execute steps), with their
 * input and output JSON Schemas, and a call is the same REST request made in-process with the
 * caller's Bearer credential, so every scope, gate and rate limit applies. A tool the caller
 * cannot use now stays listed, its description saying why.
 */
export class McpEndpoint {
  constructor(private readonly rest: RestFetch) {}

  private async call(authorization: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await runInScope({ requestId: randomUUID() }, () =>
      this.rest(`http://gateway.internal${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  private async nodes(authorization: string): Promise<WorkflowNode[]> {
    const res = await this.call(authorization, 'GET', '/api/v1/workflow-nodes');
    if (res.status !== 200) throw Object.assign(new Error('workflow nodes unavailable'), { rest: res });
    return (res.body as { data: { nodes: WorkflowNode[] } }).data.nodes.filter((n) => n.route !== null);
  }

  private server(authorization: string): Server {
    const server = new Server({ name: 'trading-gateway', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await this.nodes(authorization)).map((n): Tool => ({
        name: toolName(n),
        title: n.title,
        description: `${n.title} ${n.description}${n.available ? '' : ` Not available to this caller now: ${n.blockedBy.map((b) => b.reason).join(' ')}`}`,
        inputSchema: withoutDialect(n.inputSchema) as Tool['inputSchema'],
        ...(outputSchemaOf(n.outputSchema) ? { outputSchema: outputSchemaOf(n.outputSchema)! } : {}),
        annotations: { readOnlyHint: n.route!.method === 'GET', idempotentHint: n.route!.method === 'GET' },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const node = (await this.nodes(authorization)).find((n) => toolName(n) === request.params.name);
      if (!node)
        return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: 'tool_not_found', message: `No tool ${request.params.name}.` }) }] };
      const args = { ...(request.params.arguments ?? {}) } as Record<string, unknown>;
      // Path parameters go into the path; a GET's others into the query; anything else is the body.
      const path = node.route!.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const value = args[name];
        delete args[name];
        return encodeURIComponent(String(value ?? ''));
      });
      const isGet = node.route!.method === 'GET';
      const query = isGet ? new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString() : '';
      const res = await this.call(authorization, node.route!.method, query ? `${path}?${query}` : path, isGet ? undefined : args);
      const text = JSON.stringify(res.body);
      if (res.status >= 400) return { isError: true, content: [{ type: 'text', text }] };
      const structured = res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? { structuredContent: res.body as Record<string, unknown> } : {};
      return { content: [{ type: 'text', text }], ...structured };
    });
    return server;
  }

  /** Serves one HTTP request to /mcp. Without a valid credential: 401 in the gateway's error shape. */
  async handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    const probe = await this.call(authorization, 'GET', '/api/v1/capabilities');
    if (probe.status !== 200) {
      res.writeHead(probe.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId });
      const body = probe.body as { code?: string; message?: string } | null;
      res.end(JSON.stringify(errorResponse(probe.status, body?.code ?? 'unauthenticated', body?.message ?? 'A Bearer API key is required.', requestId)));
      return;
    }
    // The edge (admitRequest) has read the body within the limit; the transport gets it parsed.
    const raw = (req as IncomingMessage & { body?: Buffer }).body;
    let parsedBody: unknown;
    if (raw && raw.length > 0) {
      try {
        parsedBody = JSON.parse(raw.toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId });
        res.end(JSON.stringify(errorResponse(400, 'invalid_request', 'The request body is not valid JSON.', requestId, { retryable: false })));
        return;
      }
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = this.server(authorization);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
  }
}
