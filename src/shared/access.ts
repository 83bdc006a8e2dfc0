/**
 * What a token's access level means for the user: a read-only token is a
 * normal profile that can browse, and the app says what it cannot do. Pure;
 * main learns the level (src/main/secrets/access.ts), the renderer shows this.
 */
import type { TokenAccess } from './ipc.ts';

export function describeAccess(access: TokenAccess): { label: string; limits: string | null; canWrite: boolean } {
  switch (access) {
    case 'full':
      return { label: 'Full access', limits: null, canWrite: true };
    case 'readonly':
      return {
        label: 'Read-only',
        limits: 'This token can browse and sync, but the server refuses changes: edits cannot be sent with it.',
        canWrite: false,
      };
    case 'feature':
      return {
        label: 'Limited to one feature',
        limits: 'This token only reaches one application feature: most lists cannot be synced and most edits will be refused.',
        canWrite: false,
      };
    case 'unknown':
      return { label: 'Access not yet checked', limits: null, canWrite: true };
  }
}
