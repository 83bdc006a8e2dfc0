import { describe, expect, it } from 'vitest';
import { pendingNote } from './ReportDocument.tsx';

describe("the report's note on changes not yet on the platform", () => {
  it('says nothing when the report includes none', () => {
    expect(pendingNote(0, 12)).toBeNull();
  });

  it("gives the Outbox's own number beside the report's, and what the others are", () => {
    expect(pendingNote(33, 38)).toBe(
      'Includes 33 of the 38 changes in the Outbox, not yet on the platform; the other 5 are about what this report does not show (access, e-mails, other people).',
    );
    expect(pendingNote(1, 2)).toBe(
      'Includes 1 of the 2 changes in the Outbox, not yet on the platform; the other one is about what this report does not show (access, e-mails, other people).',
    );
  });

  it('says "all" when the report includes every change of the Outbox', () => {
    expect(pendingNote(38, 38)).toBe('Includes all 38 changes in the Outbox, not yet on the platform.');
    expect(pendingNote(1, 1)).toBe('Includes the change in the Outbox, not yet on the platform.');
  });
});
