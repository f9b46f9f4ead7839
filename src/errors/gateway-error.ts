import { GraphQLError } from 'graphql';

export interface GatewayErrorOptions {
  /** Free-form detail; the only place internal gate names may appear (spec, Error response). */
  details?: Record<string, unknown>;
  retryable?: boolean;
  nextAction?: string | Record<string, unknown>;
  retryAfter?: number;
  /** HTTP headers the answer carries beside the body's (Allow, Accept, Connection); never in GraphQL extensions. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A refusal the client should see as the spec's error response. Over REST it becomes the body
 * and status; over GraphQL its code and status ride in `extensions`. Made by the factories of
 * src/errors (one per code), never assembled by hand.
 */
export class GatewayError extends GraphQLError {
  readonly status: number;
  readonly code: string;
  readonly options: GatewayErrorOptions;

  constructor(status: number, code: string, message: string, options: GatewayErrorOptions = {}) {
    // A refusal is an answer, not a fault: no stack is captured (a flood of 429s would pay for one each).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, {
      extensions: {
        code,
        http: { status },
        ...(options.details ? { details: options.details } : {}),
        ...(options.retryable !== undefined ? { retryable: options.retryable } : {}),
        ...(options.nextAction !== undefined ? { nextAction: options.nextAction } : {}),
        ...(options.retryAfter !== undefined ? { retryAfter: options.retryAfter } : {}),
      },
    });
    Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.code = code;
    this.options = options;
    this.name = 'GatewayError';
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
