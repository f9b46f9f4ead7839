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
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: GatewayErrorOptions = {},
  ) {
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
    this.name = 'GatewayError';
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
