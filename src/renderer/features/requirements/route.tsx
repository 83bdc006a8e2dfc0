/** The "Requirements" tab: what each group must hold, for the compliance report (local only). */
import { lazy } from 'react';
import { registerRoute } from '../../app/routes.tsx';

registerRoute({
  id: 'requirements',
  label: 'Requirements',
  order: 56,
  component: lazy(() => import('./RequirementsView.tsx')),
});
