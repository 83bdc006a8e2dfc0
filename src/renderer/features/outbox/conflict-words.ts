/**
 * What a conflict's resolution will do, in words, before and after the click:
 * the main button's label and the confirmation. Pure over the op and the
 * user's choices (see shared/replay-queue/merge.ts for the merge itself).
 */
import type { OpSpec } from '../../../shared/ipc.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { OP_KIND_TABLE } from '../../../shared/op-kinds.ts';
import { conflictFieldNames, type FieldChoice } from '../../../shared/replay-queue/merge.ts';
import { fieldInSentence } from '../../app/words.ts';
import { fieldValue } from './compare.ts';

export interface ResolutionWords {
  /** every field in conflict has a choice */
  ready: boolean;
  /** the main button */
  action: string;
  /** what was done, said once the choice is made */
  done: string;
}

/** "status “Inactive” and first name “Ann”" (the values as the op's kind words them) */
function listed(fields: readonly string[], values: Record<string, unknown>, spec: OpSpec): string {
  const items = fields.map((f) => `${fieldInSentence(f)} “${fieldValue(f, values[f], spec)}”`);
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

export function resolutionWords(
  op: OutboxOp,
  choices: Readonly<Record<string, FieldChoice>>,
  what: string,
): ResolutionWords {
  const fields = conflictFieldNames(op);
  const chosen = fields.filter((f) => choices[f] !== undefined);
  if (chosen.length < fields.length) {
    return {
      ready: false,
      action: `Choose yours or the server’s for each field (${chosen.length} of ${fields.length} chosen)`,
      done: '',
    };
  }
  const theirs = fields.filter((f) => choices[f] === 'theirs');
  const server = op.theirs ?? {};
  if (OP_KIND_TABLE[op.op.kind].effect === 'delete') {
    return theirs.length > 0
      ? {
          ready: true,
          action: 'Keep it as the server has it',
          done: `Kept as the server has it: ${what}. Nothing is sent.`,
        }
      : {
          ready: true,
          action: 'Remove it anyway',
          done: `Queued again: ${what}. It is sent if nobody changes it again first.`,
        };
  }
  const changes = 'changes' in op.op ? (op.op.changes as Record<string, unknown>) : {};
  const mine = Object.keys(changes).filter((f) => changes[f] !== undefined && !theirs.includes(f));
  if (mine.length === 0)
    return {
      ready: true,
      action: 'Keep the server’s values',
      done: `Kept the server’s ${listed(theirs, server, op.op)}: ${what}. Nothing is sent.`,
    };
  const kept = theirs.length > 0 ? `; kept the server’s ${listed(theirs, server, op.op)}` : '';
  const mineListed = listed(mine, changes, op.op);
  return {
    ready: true,
    action: theirs.length > 0 ? 'Send the merged change' : 'Send mine',
    done: `Queued again: ${mineListed}${kept} (${what}). It is sent if nobody changes these fields again first.`,
  };
}
