/**
 * The built-in views' tabs (imported once from ./feature-routes.ts). Heavy views
 * load lazily to keep start-up light.
 */
import { lazy } from 'react';
import { registerRoute } from './routes.tsx';
import UsersRoute from '../features/users/UsersRoute.tsx';
import { NotFoundView } from '../components/NotFoundView.tsx';
import { NOT_FOUND_ROUTE } from './router.ts';

// eager: the first screen, so it renders without another fetch
registerRoute({ id: 'users', label: 'Users', order: 10, component: UsersRoute });
// an address that cannot be read (app/router.ts); reached from no tab
registerRoute({
  id: NOT_FOUND_ROUTE,
  label: 'Page not found',
  order: 999,
  nav: false,
  component: NotFoundView,
});
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
