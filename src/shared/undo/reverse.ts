/**
 * Undo after apply: the op that puts a done op's record back, built from the
 * op's before-image (the base values it recorded, the id the server gave a
 * create), by its kind's own reverse (src/shared/op-kinds/). Pure.
 *
 * What the API cannot reverse is said, never guessed: a person cannot be
 * deleted (the offer: set them Inactive), and a change whose before-image was
 * not recorded cannot be put back.
 */
import type { OutboxOp } from '../outbox.ts';
import { definitionOf } from '../op-kinds.ts';
import type { Reversal } from './reversal.ts';

export type { Reversal, ReversalStep, Shape, ShapeValue } from './reversal.ts';

export function reverseOp(op: OutboxOp): Reversal {
  return definitionOf(op.op).reverse(op, op.op);
}
