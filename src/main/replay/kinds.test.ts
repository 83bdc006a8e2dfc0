/**
 * Main's registry of operation kinds is complete: every kind of OP_KINDS has
 * its replay part, each registered under its own kind. A kind without one, or
 * a part without a piece, does not typecheck (the `@ts-expect-error` lines
 * hold that: `npx tsc` fails when the error they expect goes away).
 */
import { describe, expect, it } from 'vitest';
import { OP_KINDS } from '../../shared/ipc.ts';
import { REPLAY_KIND_TABLE } from './kinds.ts';
import type { ReplayKind, ReplayKindRegistry } from './kinds/definition.ts';
import { emailAdd } from './kinds/email.ts';

describe("main's registry of operation kinds", () => {
  it('has a replay part for every kind, and for no other', () => {
    expect(Object.keys(REPLAY_KIND_TABLE).sort()).toEqual([...OP_KINDS].sort());
  });

  it('refuses, at compile time, a kind without its part and a part without a piece', () => {
    const { 'email.add': _dropped, ...withoutOne } = REPLAY_KIND_TABLE;
    // @ts-expect-error a kind of OP_KINDS has no replay part
    const incomplete: ReplayKindRegistry = withoutOne;
    const { readState: _noRead, ...partial } = emailAdd;
    // @ts-expect-error a part without its read of the platform's state
    const missingPiece: ReplayKind<'email.add'> = partial;
    // @ts-expect-error a part registered under another kind
    const misplaced: ReplayKindRegistry = { ...REPLAY_KIND_TABLE, 'email.remove': emailAdd };
    expect([incomplete, missingPiece, misplaced]).toHaveLength(3);
  });
});
