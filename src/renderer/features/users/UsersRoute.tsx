/** `#/users` is the list, `#/users/42` one user's detail. */
import { lazy } from 'react';
import type { RouteProps } from '../../app/routes.tsx';
import { useActiveDb } from '../../app/session.ts';
import { UsersView } from './UsersView.tsx';

const UserDetailView = lazy(() => import('../user-detail/UserDetailView.tsx'));

export default function UsersRoute({ params }: RouteProps) {
  const db = useActiveDb();
  if (!db) return null;
  const userid = Number(params[0]);
  if (params[0] !== undefined && Number.isInteger(userid)) return <UserDetailView db={db} userid={userid} />;
  return <UsersView db={db} />;
}
