import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { invalidBodyShape } from '../../errors/error-factories.js';
import { internalError } from '../../errors/availability-refusals.js';
import { refusalAnswer, writeAnswer, type Answer, type HeaderList } from '../pipeline/answer.js';
import { WRITTEN, type RouteHandler } from '../pipeline/gateway-pipeline.js';
import type { Exchange } from '../pipeline/exchange.js';
import type { InProcessRequest } from '../pipeline/in-process.js';

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

/** Who an MCP request is made for: its credential and its address (every tool call counts against their rate limit). */
interface Caller {
  authorization: string;
  remoteAddress: string | undefined;
  forwardedFor: string | undefined;
}

/** The gateway's REST routes, called in-process through the same stages as over the network. */
type RestCall = (request: InProcessRequest) => Promise<Answer>;

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
  constructor(
    private readonly rest: RestCall,
    private readonly logger: Logger,
  ) {}

  /** The /mcp route's handler: the transport writes the answer; a failure before it did is a masked 500. */
  handler(): RouteHandler {
    return (exchange, security) =>
      this.handle(exchange, security).then(
        () => WRITTEN,
        (err: unknown) => {
          this.logger.error({ err, requestId: exchange.requestId }, 'mcp request failed');
          const { res } = exchange.node!;
          if (!res.headersSent) writeAnswer(res, refusalAnswer(exchange, internalError('The MCP request failed.')), security);
          else res.end();
          return WRITTEN;
        },
      );
  }

  private async call(caller: Caller, method: string, target: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await this.answer(randomUUID(), caller, method, target, body);
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(String(res.body));
    } catch {
      // an answer without a JSON body (none today) reads as null
    }
    return { status: res.status, body: parsed };
  }

  private answer(requestId: string, caller: Caller, method: string, target: string, body?: unknown): Promise<Answer> {
    const q = target.indexOf('?');
    return this.rest({
      requestId,
      ...(caller.remoteAddress ? { remoteAddress: caller.remoteAddress } : {}),
      method,
      path: q === -1 ? target : target.slice(0, q),
      ...(q === -1 ? {} : { search: target.slice(q + 1) }),
      headers: {
        authorization: caller.authorization,
        'content-type': 'application/json',
        ...(caller.forwardedFor ? { 'x-forwarded-for': caller.forwardedFor } : {}),
      },
      ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
    });
  }

  private async nodes(caller: Caller): Promise<WorkflowNode[]> {
    const res = await this.call(caller, 'GET', '/api/v1/workflow-nodes');
    if (res.status !== 200) throw Object.assign(new Error('workflow nodes unavailable'), { rest: res });
    return (res.body as { data: { nodes: WorkflowNode[] } }).data.nodes.filter((n) => n.route !== null);
  }

  private server(caller: Caller): Server {
    const server = new Server({ name: 'trading-gateway', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await this.nodes(caller)).map((n): Tool => ({
        name: toolName(n),
        title: n.title,
        description: `${n.title} ${n.description}${n.available ? '' : ` Not available to this caller now: ${n.blockedBy.map((b) => b.reason).join(' ')}`}`,
        inputSchema: withoutDialect(n.inputSchema) as Tool['inputSchema'],
        ...(outputSchemaOf(n.outputSchema) ? { outputSchema: outputSchemaOf(n.outputSchema)! } : {}),
        annotations: { readOnlyHint: n.route!.method === 'GET', idempotentHint: n.route!.method === 'GET' },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const node = (await this.nodes(caller)).find((n) => toolName(n) === request.params.name);
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
      const res = await this.call(caller, node.route!.method, query ? `${path}?${query}` : path, isGet ? undefined : args);
      const text = JSON.stringify(res.body);
      if (res.status >= 400) return { isError: true, content: [{ type: 'text', text }] };
      const structured = res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? { structuredContent: res.body as Record<string, unknown> } : {};
      return { content: [{ type: 'text', text }], ...structured };
    });
    return server;
  }

  /**
   * Serves one HTTP request to /mcp (its body already read within the limit by the stages).
   * Without a valid credential: the capabilities route's own refusal (401), in the gateway's shape.
   */
  private async handle(exchange: Exchange, security: HeaderList): Promise<void> {
    const { req, res } = exchange.node!;
    const caller: Caller = {
      authorization: exchange.header('authorization') ?? '',
      remoteAddress: exchange.remoteAddress,
      forwardedFor: exchange.header('x-forwarded-for'),
    };
    // The capabilities route under this request's id: its refusal (401 without a valid key) is this endpoint's answer.
    const probe = await this.answer(exchange.requestId, caller, 'GET', '/api/v1/capabilities');
    if (probe.status !== 200) return writeAnswer(res, probe, security);
    let parsedBody: unknown;
    if (exchange.body && exchange.body.length > 0) {
      try {
        parsedBody = JSON.parse(exchange.body.toString('utf8'));
      } catch {
        return writeAnswer(res, refusalAnswer(exchange, invalidBodyShape('The request body is not valid JSON.')), security);
      }
    }
    for (let i = 0; i < security.length; i += 2) res.setHeader(security[i]!, security[i + 1]!);
    res.setHeader('x-request-id', exchange.requestId);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = this.server(caller);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
  }
}
