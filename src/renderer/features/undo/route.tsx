/** Undo after apply: a sub-view reached from the Outbox's batch filter (not a tab). */
import { lazy } from 'react';
import { registerRoute } from '../../app/routes.tsx';

registerRoute({
  id: 'undo',
  label: 'Undo a batch',
  order: 66,
  nav: false,
  component: lazy(() => import('./UndoView.tsx')),
});
