import { describe, expect, it } from 'vitest';
import { KIND_SPECS, RECORD_MAKERS, TASK_KINDS } from './tasks.ts';

describe("a sync task's records", () => {
  it.each(TASK_KINDS)(
    'makes the records of a %s page from items of the schema its page is read with',
    (kind) => {
      expect(RECORD_MAKERS[kind].schema).toBe(KIND_SPECS[kind].schema);
    },
  );
});
