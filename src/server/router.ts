/** Matching a request's method and path (below /v1) to a route. Pure. */
import type { Method, Route } from './context.ts';
import { accessRoutes } from './routes/access.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { siteRoutes } from './routes/sites.ts';
import { trainingRoutes } from './routes/training.ts';
import { userRoutes } from './routes/users.ts';

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  /** the path exists with other methods: 405 */
  | { kind: 'wrong-method'; allowed: Method[] }
  | { kind: 'none' };

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/:([a-z]+)/g, (_, name: string) => {
      names.push(name);
      return name === 'assignmentid' ? '(\\d{1,15}-\\d{1,15})' : '(\\d{1,15})';
    });
    return { route, regex: new RegExp(`^${source}/?$`), names };
  });
}

export function matchRoute(compiled: CompiledRoute[], method: string, path: string): RouteMatch {
  const allowed: Method[] = [];
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    if (c.route.method !== method) {
      allowed.push(c.route.method);
      continue;
    }
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => (params[name] = m[i + 1]!));
    return { kind: 'found', route: c.route, params };
  }
  return allowed.length ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}

/** Every route of the Data API v1 this server implements. */
export function apiRoutes(): Route[] {
  return [...siteRoutes, ...userRoutes, ...accessRoutes, ...credentialRoutes, ...trainingRoutes];
}
