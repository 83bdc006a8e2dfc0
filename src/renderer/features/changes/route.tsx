/** The "Since last sync" tab. */
import { lazy } from 'react';
import { registerRoute } from '../../app/routes.tsx';

registerRoute({
  id: 'changes',
  label: 'Since last sync',
  order: 55,
  component: lazy(() => import('./ChangesView.tsx')),
});
