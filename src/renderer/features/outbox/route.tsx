/**
 * The outbox feature's registrations, imported once from app/feature-routes.ts:
 * the Outbox, Conflicts and Import tabs, the bulk actions on the users
 * selection and the pending-edit overlays (the replay engine is the profile
 * session's: app/profile-session.ts).
 */
import { lazy } from 'react';
import { registerRoute } from '../../app/routes.tsx';
import { registerSelectionAction } from '../../components/SelectionBar.tsx';
import { BulkActions } from '../bulk/BulkActions.tsx';
import { registerOutboxOverlays } from '../../outbox/overlays.ts';
import { ConflictCount, OutboxCount } from './TabCounts.tsx';

registerRoute({
  id: 'outbox',
  label: 'Outbox',
  order: 60,
  component: lazy(() => import('./OutboxView.tsx')),
  Badge: OutboxCount,
});
registerRoute({
  id: 'conflicts',
  label: 'Conflicts',
  order: 65,
  component: lazy(() => import('./ConflictView.tsx')),
  Badge: ConflictCount,
});
registerRoute({
  id: 'import',
  label: 'Import',
  order: 70,
  component: lazy(() => import('../import/ImportView.tsx')),
});
registerSelectionAction('bulk', BulkActions);
registerOutboxOverlays();
