import { ENDPOINTS, PATH_ALIASES, type EndpointKind, type EndpointSpec } from './routes/endpoints.js';
import { ROUTES } from './route-registry.js';
import type { HttpMethod, RouteSpec } from './route-spec.js';

/** A contract route (its registry row) as the server serves it. */
export interface ContractRoute {
  serves: 'contract';
  method: HttpMethod;
  /** The path template, `{name}` for a parameter: the route's label in metrics and logs. */
  template: string;
  spec: RouteSpec;
}

/** An endpoint outside the contract, for one of its methods. */
export interface EndpointRoute {
  serves: EndpointKind;
  method: HttpMethod;
  template: string;
  endpoint: EndpointSpec;
}

/** A path no route has (`unmatched`), or a method the path's routes do not serve (`allow` says which they do). */
export interface UnservedRoute {
  serves: 'unserved';
  method: string;
  /** `unmatched`, or the path's template when only the method is wrong. */
  template: string;
  allow: readonly HttpMethod[];
}

/** One method of one route: everything the server answers is one of these. */
export type ServedRoute = ContractRoute | EndpointRoute | UnservedRoute;

/** Every route the server answers, contract and endpoints, in registry order. */
export const ROUTE_TABLE: readonly (ContractRoute | EndpointRoute)[] = [
  ...ROUTES.map((spec): ContractRoute => ({ serves: 'contract', method: spec.method, template: spec.path, spec })),
  ...ENDPOINTS.flatMap((endpoint) => endpoint.methods.map((method): EndpointRoute => ({ serves: endpoint.serves, method, template: endpoint.path, endpoint }))),
];

/** What a request path matched: every row of the path (whatever the method) and its parameters. */
export interface PathMatch {
  rows: readonly (ContractRoute | EndpointRoute)[];
  params: Readonly<Record<string, string>>;
  /** A path parameter is not valid percent-encoding (answered 400 with the route's own code). */
  badEncoding: boolean;
}

interface CompiledPath {
  pattern: RegExp;
  names: string[];
  rows: (ContractRoute | EndpointRoute)[];
}

const LOOKUP_CACHE_LIMIT = 2_000;

/** The route table compiled once: a path's rows, found by template (a path asked again is found in a bounded map). */
export class RouteTable {
  private readonly paths: CompiledPath[] = [];
  private readonly byPath = new Map<string, PathMatch | undefined>();

  constructor(rows: readonly (ContractRoute | EndpointRoute)[] = ROUTE_TABLE) {
    const byTemplate = new Map<string, CompiledPath>();
    for (const row of rows) {
      let compiled = byTemplate.get(row.template);
      if (!compiled) {
        const names: string[] = [];
        const source = row.template.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'));
        const subtree = row.serves !== 'contract' && row.endpoint.subtree === true;
        compiled = { pattern: new RegExp(`^${source}${subtree ? '(?:/.*)?' : ''}$`), names, rows: [] };
        byTemplate.set(row.template, compiled);
        this.paths.push(compiled);
      }
      compiled.rows.push(row);
    }
  }

  /**
   * The route of a request: the row of its path and method (HEAD finds GET), else an unserved
   * row saying why; with the path's parameters and whether one was not valid percent-encoding.
   */
  resolve(method: string, path: string): { route: ServedRoute; params: Readonly<Record<string, string>>; badEncoding: boolean } {
    const found = this.lookup(path);
    if (!found) return { route: { serves: 'unserved', method, template: 'unmatched', allow: [] }, params: {}, badEncoding: false };
    const wanted = method === 'HEAD' ? 'GET' : method;
    const route = found.rows.find((r) => r.method === wanted);
    if (route) return { route, params: found.params, badEncoding: found.badEncoding };
    const allow = [...new Set(found.rows.map((r) => r.method))];
    return { route: { serves: 'unserved', method, template: found.rows[0]!.template, allow }, params: {}, badEncoding: false };
  }

  /** The rows of `path` (after its alias), or undefined when no route has that path. */
  lookup(path: string): PathMatch | undefined {
    if (this.byPath.has(path)) return this.byPath.get(path);
    const found = this.match(PATH_ALIASES[path] ?? path);
    if (this.byPath.size >= LOOKUP_CACHE_LIMIT) this.byPath.clear();
    this.byPath.set(path, found);
    return found;
  }

  private match(path: string): PathMatch | undefined {
    let rows: (ContractRoute | EndpointRoute)[] | undefined;
    let params: Record<string, string> = {};
    let badEncoding = false;
    for (const compiled of this.paths) {
      const m = compiled.pattern.exec(path);
      if (!m) continue;
      if (!rows) {
        rows = [...compiled.rows];
        compiled.names.forEach((name, i) => {
          try {
            params[name] = decodeURIComponent(m[i + 1]!);
          } catch {
            badEncoding = true;
          }
        });
      } else rows.push(...compiled.rows);
    }
    if (!rows) return undefined;
    if (badEncoding) params = {};
    return { rows, params, badEncoding };
  }
}
