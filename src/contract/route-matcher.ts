import type { RouteSpec } from './route-spec.js';

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

/** Matches request paths against the registry; compiled once. */
export class RouteMatcher {
  private readonly compiled: { route: RouteSpec; pattern: RegExp; names: string[] }[];

  constructor(routes: readonly RouteSpec[]) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'));
      return { route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /** Routes whose path matches, whatever their method. */
  match(pathname: string): RouteMatch[] {
    const found: RouteMatch[] = [];
    for (const c of this.compiled) {
      const m = c.pattern.exec(pathname);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
      found.push({ route: c.route, params });
    }
    return found;
  }
}
