/**
 * The route/tab registry. Built-in views are registered here; a feature adds
 * its tab with `registerRoute(...)` in its own `route.tsx`, imported with one
 * line in `app/feature-routes.ts`. Heavy views load lazily to keep start-up light.
 */
import { lazy, type ComponentType } from 'react';
import UsersRoute from '../features/users/UsersRoute.tsx';

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

// eager: the first screen, so it renders without another fetch
registerRoute({ id: 'users', label: 'Users', order: 10, component: UsersRoute });
registerRoute({
  id: 'credentials',
  label: 'Credentials',
  order: 20,
  component: lazy(() => import('../features/credentials/CredentialsView.tsx')),
});
registerRoute({
  id: 'training',
  label: 'Training',
  order: 30,
  component: lazy(() => import('../features/training/TrainingView.tsx')),
});
registerRoute({
  id: 'access',
  label: 'Access',
  order: 40,
  component: lazy(() => import('../features/access/AccessView.tsx')),
});
registerRoute({
  id: 'dashboard',
  label: 'Dashboard',
  order: 50,
  component: lazy(() => import('../features/dashboard/DashboardView.tsx')),
});
registerRoute({
  id: 'settings',
  label: 'Connection & sync',
  order: 90,
  component: lazy(() => import('../features/settings/SettingsView.tsx')),
});
