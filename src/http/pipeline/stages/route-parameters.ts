import type { QueryParamSpec, RouteSpec } from '../../../contract/route-spec.js';
import { invalidParameter, invalidPathEncoding } from '../../../errors/error-factories.js';
import { isRfc3339 } from '../../../domain/rfc3339.js';
import { refusalAnswer } from '../answer.js';
import type { Stage } from '../stage.js';

const INTEGER = /^-?\d{1,15}$/;
/** Query strings read, per route: the same few are asked again and again. Bounded: cleared when full. */
const READ_LIMIT = 2_000;

/** What a query string says to a route: its typed values, or the problem with it. */
type QueryReading = { values: Readonly<Record<string, unknown>>; key: string } | { parameter: string; message: string };

/**
 * A contract route's path and query parameters as GraphQL variables, checked as its row declares
 * them, each refusal the route's own 400 naming the parameter in the gateway's words: a path
 * that is not valid percent-encoding, a parameter given twice or in bracket form (`limit[]=…`),
 * an empty one (which would silently apply the default), an integer, enum or date-time that is
 * not one. Undeclared query parameters are ignored. A public route's are read before the rate
 * limiter (a malformed read costs no budget); a guarded route's after its credential (nothing
 * about its arguments reaches a caller without one).
 */
export function routeParametersStage(plane: 'public' | 'guarded'): Stage {
  const readings = new Map<RouteSpec, Map<string, QueryReading>>();
  const readingOf = (spec: RouteSpec, search: string): QueryReading => {
    let bySearch = readings.get(spec);
    if (!bySearch) readings.set(spec, (bySearch = new Map()));
    let reading = bySearch.get(search);
    if (!reading) {
      if (bySearch.size >= READ_LIMIT) bySearch.clear();
      bySearch.set(search, (reading = readQuery(spec, new URLSearchParams(search))));
    }
    return reading;
  };
  return {
    name: `routeParameters(${plane})`,
    appliesTo: (route) => route.serves === 'contract' && (route.spec.visibility === 'public') === (plane === 'public'),
    run(exchange) {
      if (exchange.route.serves !== 'contract') return undefined;
      const spec = exchange.route.spec;
      const code = spec.invalidInputCode ?? 'invalid_request';
      if (exchange.badEncoding) return refusalAnswer(exchange, invalidPathEncoding(code));
      if (!spec.queryParams || !exchange.search) {
        exchange.variables = { ...exchange.params };
        exchange.queryKey = '';
        return undefined;
      }
      const reading = readingOf(spec, exchange.search);
      if ('parameter' in reading) return refusalAnswer(exchange, invalidParameter(code, reading.parameter, reading.message));
      exchange.variables = { ...exchange.params, ...reading.values };
      exchange.queryKey = reading.key;
      return undefined;
    },
  };
}

function readQuery(spec: RouteSpec, query: URLSearchParams): QueryReading {
  const declared = spec.queryParams!;
  const values: Record<string, unknown> = {};
  let key = '';
  for (const given of query.keys()) {
    const bracket = given.indexOf('[');
    if (bracket > 0 && given.slice(0, bracket) in declared) {
      const name = given.slice(0, bracket);
      return { parameter: name, message: `'${name}' must be given once, as ${name}=value (not ${given}=…).` };
    }
  }
  for (const [name, param] of Object.entries(declared)) {
    const given = query.getAll(name);
    if (given.length > 1) return { parameter: name, message: `'${name}' is given more than once.` };
    const value = given[0];
    if (value === undefined) continue;
    const problem = valueProblem(name, param, value);
    if (problem) return { parameter: name, message: problem };
    values[name] = param.type === 'integer' ? Number(value) : value;
    key += `&${name}=${encodeURIComponent(String(values[name]))}`;
  }
  return { values: Object.freeze(values), key };
}

function valueProblem(name: string, param: QueryParamSpec, value: string): string | undefined {
  if (value === '') return `'${name}' must not be empty; omit it to use the default.`;
  if (param.type === 'integer' && !INTEGER.test(value)) {
    return param.minimum !== undefined && param.maximum !== undefined
      ? `'${name}' must be an integer from ${param.minimum} to ${param.maximum}.`
      : `'${name}' must be an integer.`;
  }
  if (param.enum && !param.enum.includes(value)) return `'${name}' must be one of ${param.enum.join(', ')}.`;
  if (param.format === 'date-time' && !isRfc3339(value)) return `'${name}' must be an RFC 3339 date-time such as 2026-11-22T10:00:00Z.`;
  return undefined;
}
