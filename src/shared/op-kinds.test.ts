/**
 * The registry of operation kinds is complete: every kind has one definition,
 * with every part, and each definition is its own kind's. A kind added to
 * OP_KINDS without its definition, or a definition missing a part, does not
 * typecheck (the `@ts-expect-error` lines below hold that: `npx tsc` fails when
 * the error they expect goes away).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OP_KINDS, type OpKind } from './ipc.ts';
import { OP_KIND_TABLE } from './op-kinds.ts';
import type { OpKindDefinition, OpKindRegistry } from './op-kinds/definition.ts';
import { emailAdd } from './op-kinds/email.ts';

/** Every part of a definition (a part added to OpKindDefinition and not here is a type error). */
const PARTS = {
  schema: true,
  effect: true,
  createdIdField: true,
  featureTokenMaySend: true,
  changes: true,
  shows: true,
  targetKey: true,
  recordKey: true,
  overlay: true,
  undoRecordKey: true,
  reverse: true,
} satisfies Record<keyof OpKindDefinition<OpKind>, true>;

describe('the registry of operation kinds', () => {
  it.each(OP_KINDS)('defines %s with every part', (kind) => {
    const parts = Object.entries(OP_KIND_TABLE[kind]).filter(([, value]) => value !== undefined);
    const defined = new Set(parts.map(([part]) => part));
    const missing = Object.keys(PARTS).filter((part) => !defined.has(part));
    expect(missing).toEqual([]);
  });

  it.each(OP_KINDS)("registers %s under its own kind's payload", (kind) => {
    const { schema } = OP_KIND_TABLE[kind];
    expect(schema instanceof z.ZodObject ? schema.shape['kind'] : null).toMatchObject({ value: kind });
  });

  it('refuses, at compile time, a kind without a definition and a definition without a part', () => {
    const { 'email.add': _dropped, ...withoutOne } = OP_KIND_TABLE;
    // @ts-expect-error a kind of OP_KINDS has no definition
    const incomplete: OpKindRegistry = withoutOne;
    const { reverse: _noReverse, ...partial } = emailAdd;
    // @ts-expect-error a definition without its undo
    const missingPart: OpKindDefinition<'email.add'> = partial;
    // @ts-expect-error a definition registered under another kind
    const misplaced: OpKindRegistry = { ...OP_KIND_TABLE, 'email.remove': emailAdd };
    expect([incomplete, missingPart, misplaced]).toHaveLength(3);
  });
});
