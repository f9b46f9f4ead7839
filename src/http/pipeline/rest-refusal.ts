import type { Logger } from 'pino';
import { invalidField, invalidParameter } from '../../errors/error-factories.js';
import { internalError } from '../../errors/availability-refusals.js';
import { isGatewayError, type GatewayError } from '../../errors/gateway-error.js';
import type { Exchange } from './exchange.js';

/** What graphql-js says of a variable it cannot coerce, or that is missing. */
const VARIABLE = /^Variable "\$(\w+)" (?:got invalid value|of required type "[^"]*" was not provided)/;

/**
 * The refusal a REST route answers for what its execution threw or returned as errors: a
 * gateway error as it is; a variable graphql-js refused as the route's own 400 naming the
 * parameter or field, in the gateway's words (never `Variable "$x"`, GraphQL type names or
 * JavaScript messages); anything else logged with the request id and masked as a 500.
 */
export function restRefusal(errors: readonly unknown[], exchange: Pick<Exchange, 'requestId' | 'route'>, logger: Logger): GatewayError {
  const first = errors[0] as { message?: string; originalError?: unknown } | undefined;
  const gateway = [first, first?.originalError].find(isGatewayError);
  if (gateway) return gateway;
  const spec = exchange.route.serves === 'contract' ? exchange.route.spec : undefined;
  const variable = first?.message ? VARIABLE.exec(first.message)?.[1] : undefined;
  if (variable && spec) {
    const code = spec.invalidInputCode ?? 'invalid_request';
    const missing = first!.message!.includes('was not provided');
    const problem = missing ? 'is required.' : 'is not valid for this request.';
    return variable in (spec.queryParams ?? {}) || variable in (spec.pathParams ?? {})
      ? invalidParameter(code, variable, `'${variable}' ${problem}`)
      : invalidField(variable, problem, code);
  }
  logger.error({ err: first?.originalError ?? first, requestId: exchange.requestId, route: exchange.route.template }, 'unexpected error on a REST route');
  return internalError();
}
