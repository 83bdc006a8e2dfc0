/** The "Report" tab: the compliance report to take along. */
import { lazy } from 'react';
import { registerRoute } from '../../app/routes.tsx';

registerRoute({
  id: 'report',
  label: 'Report',
  order: 57,
  component: lazy(() => import('./ReportView.tsx')),
});
