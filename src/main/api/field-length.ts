/**
 * The length limit on a record's text (MAX_FIELD_CHARS), after the wire
 * schemas: every key and string of a record, the fields Fieldbook reads and
 * those it keeps as they came (a site's or a person's extra fields), however
 * deep. zod checks only the fields it knows, so a walk does this.
 */
import { z } from 'zod';
import { schemas, type Parsed, type SchemaName } from '../../shared/api/wire.ts';
import { MAX_FIELD_CHARS } from '../../shared/ipc-limits.ts';

type Path = readonly PropertyKey[];

const overlong = (text: string) => text.length > MAX_FIELD_CHARS;

/** The children of an array or object, in order, with the key or index of each. */
function entriesOf(value: object): [PropertyKey, unknown][] {
  return Array.isArray(value)
    ? value.map((inner, i): [PropertyKey, unknown] => [i, inner])
    : Object.entries(value);
}

/**
 * The path to the first key or string of `record` over the limit, or null.
 * A stack, not recursion: a hostile answer may nest deeper than the call stack.
 */
function overlongPath(record: unknown): Path | null {
  const stack: { value: unknown; path: Path }[] = [{ value: record, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string' && overlong(value)) return path;
    if (value === null || typeof value !== 'object') continue;
    const entries = entriesOf(value);
    const key = entries.find(([k]) => typeof k === 'string' && overlong(k));
    if (key) return [...path, key[0]];
    // pushed last first, so the first child is looked at first
    for (const [k, inner] of entries.toReversed()) stack.push({ value: inner, path: [...path, k] });
  }
  return null;
}

/**
 * The first record of `list` holding a text over the limit, as zod's issue at it (record-issue.ts says it in words).
 */
function overlongError(list: readonly unknown[]): z.ZodError | null {
  for (let i = 0; i < list.length; i++) {
    const path = overlongPath(list[i]);
    if (path)
      return new z.ZodError([
        {
          code: 'too_big',
          origin: 'string',
          maximum: MAX_FIELD_CHARS,
          inclusive: true,
          path: [i, ...path],
          message: 'too long',
          input: undefined,
        },
      ]);
  }
  return null;
}

/**
 * Records read with their wire schema, then held to the length limit: the items, or the first error (for recordIssue).
 */
export function parseRecords<K extends SchemaName>(
  schema: K,
  list: readonly unknown[],
): { success: true; data: Parsed<K>[] } | { success: false; error: z.ZodError } {
  const parsed = z.array(schemas[schema]).safeParse(list);
  if (!parsed.success) return { success: false, error: parsed.error };
  const error = overlongError(list);
  return error ? { success: false, error } : { success: true, data: parsed.data as Parsed<K>[] };
}
