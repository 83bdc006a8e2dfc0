import { describe, expect, it } from 'vitest';
import { canWrite, firstWriteRefusal, writeRefusal } from './access.ts';
import { OP_KINDS, type OpKind, type TokenAccess } from './ipc.ts';

const ACCESS_LEVELS = ['full', 'readonly', 'feature', 'unknown'] as const satisfies readonly TokenAccess[];
// every access level is in the table: a new one fails to compile here until it is specified
const everyLevel: [Exclude<TokenAccess, (typeof ACCESS_LEVELS)[number]>] extends [never] ? true : false =
  true;

const FEATURE_KINDS: readonly OpKind[] = ['moduleAccess.grant', 'moduleAccess.revoke'];

/** The rule as a table: who may queue what. */
const MAY_QUEUE: Record<TokenAccess, (kind: OpKind) => boolean> = {
  full: () => true,
  unknown: () => true, // not yet checked: the server decides
  readonly: () => false,
  feature: (kind) => FEATURE_KINDS.includes(kind),
};

describe('canWrite: one rule for every token and every operation', () => {
  it('covers every access level', () => {
    expect(everyLevel).toBe(true);
  });

  for (const access of ACCESS_LEVELS) {
    for (const kind of OP_KINDS) {
      const allowed = MAY_QUEUE[access](kind);
      it(`${access} token ${allowed ? 'may' : 'may not'} queue ${kind}`, () => {
        expect(canWrite(access, kind)).toBe(allowed);
        expect(writeRefusal(access, kind) === null).toBe(allowed);
      });
    }
  }
});

describe('the reason a write is refused', () => {
  it('is the first refusal among the kinds a form queues, or none', () => {
    expect(firstWriteRefusal('feature', ['moduleAccess.grant', 'user.update'])).toContain(
      'does not include people',
    );
    expect(firstWriteRefusal('feature', ['moduleAccess.grant', 'moduleAccess.revoke'])).toBeNull();
    expect(firstWriteRefusal('full', ['user.create', 'user.update', 'email.add'])).toBeNull();
  });

  it('says a read-only token is read-only', () => {
    expect(writeRefusal('readonly', 'trainingAssignment.create')).toBe("This profile's token is read-only.");
  });

  it('names what a feature-limited token cannot change', () => {
    expect(writeRefusal('feature', 'user.update')).toBe(
      "This profile's token is limited to one feature, which does not include people.",
    );
    expect(writeRefusal('feature', 'credentialAssignment.delete')).toContain('credentials');
  });
});
