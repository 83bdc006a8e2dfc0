/**
 * The renderer's registry of operation kinds is complete: every kind of
 * OP_KINDS has its words and cache reads, each registered under its own kind.
 * A kind without its part, or a part without a piece, does not typecheck (the
 * `@ts-expect-error` lines hold that: `npx tsc` fails when the error they
 * expect goes away).
 */
import { describe, expect, it } from 'vitest';
import { OP_KINDS } from '../shared/ipc.ts';
import { RENDERER_KIND_TABLE } from './op-kinds.ts';
import type { RendererKind, RendererKindRegistry } from './op-kinds/definition.ts';
import { emailAdd } from './op-kinds/email.ts';

describe("the renderer's registry of operation kinds", () => {
  it('has a part for every kind, and for no other', () => {
    expect(Object.keys(RENDERER_KIND_TABLE).sort()).toEqual([...OP_KINDS].sort());
  });

  it('refuses, at compile time, a kind without its part and a part without a piece', () => {
    const { 'email.add': _dropped, ...withoutOne } = RENDERER_KIND_TABLE;
    // @ts-expect-error a kind of OP_KINDS has no renderer part
    const incomplete: RendererKindRegistry = withoutOne;
    const { describe: _noWords, ...partial } = emailAdd;
    // @ts-expect-error a part without its words
    const missingPiece: RendererKind<'email.add'> = partial;
    // @ts-expect-error a part registered under another kind
    const misplaced: RendererKindRegistry = { ...RENDERER_KIND_TABLE, 'email.remove': emailAdd };
    expect([incomplete, missingPiece, misplaced]).toHaveLength(3);
  });
});
