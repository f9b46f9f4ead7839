/** A request made in-process (an MCP tool call), answered by the same stages and handlers as one over the network. */
export interface InProcessRequest {
  requestId: string;
  method: string;
  path: string;
  search?: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The address of the client on whose behalf it is made (rate limits count it as theirs). */
  remoteAddress?: string;
}
