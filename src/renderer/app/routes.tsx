/**
 * The route/tab registry. It imports no view: the built-in views are registered
 * in ./builtin-routes.tsx, and a feature adds its tab with `registerRoute(...)` in
 * its own `route.tsx`, each imported with one line in `app/feature-routes.ts`.
 */
import type { ComponentType } from 'react';

export interface RouteProps {
  /** path segments after the route id (`#/users/42` -> ["42"]) */
  params: string[];
}

export interface RouteDef {
  /** first path segment, e.g. "users" */
  id: string;
  /** the tab's text */
  label: string;
  /** position in the navigation (smaller first) */
  order: number;
  component: ComponentType<RouteProps>;
  /** listed in the navigation (false for sub-views reached from elsewhere) */
  nav?: boolean;
  /** shown after the tab's text, e.g. the count of what waits there (" (12)") */
  Badge?: ComponentType;
}

const routes = new Map<string, RouteDef>();

export function registerRoute(route: RouteDef): void {
  routes.set(route.id, route);
}

export function navRoutes(): RouteDef[] {
  return [...routes.values()].filter((r) => r.nav !== false).sort((a, b) => a.order - b.order);
}

export function findRoute(id: string): RouteDef | undefined {
  return routes.get(id);
}

export const DEFAULT_ROUTE = 'users';
