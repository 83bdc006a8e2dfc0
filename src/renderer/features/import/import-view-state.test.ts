import { describe, expect, it } from 'vitest';
import {
  cannotQueueOf,
  FIRST_IMPORT_VIEW_STATE,
  importViewReducer,
  planInputsOf,
  samePlanInputs,
  type PlanSources,
} from './import-view-state.ts';
import { NOTHING_QUEUED, type QueuedState } from './queued.ts';
import { NO_HR_CHOICES } from './hr-files.ts';
import type { ImportExtras } from './extras.ts';
import type { UserRecord } from '../../../shared/records.ts';

const credential = (expirationdate: string): ImportExtras => ({
  credential: {
    credentialid: 7,
    credentialname: 'Forklift licence',
    required: { startdate: false, expirationdate: true, credentialnumber: false },
    fields: { expirationdate },
  },
});

// one sheet, one cache: what stays the same between two renders of the view
const sheet = { headers: ['Username'], headerRowNumber: 1, rows: [], warnings: [] };
const emails = new Map();
const groups = new Map();
const mapping = { username: 0 };
const users: UserRecord[] = [];

function sources(over: Partial<PlanSources> = {}): PlanSources {
  return {
    sheet,
    mapping,
    users,
    siteid: 101,
    cachedSites: [101],
    emails,
    queued: NOTHING_QUEUED,
    extras: {},
    key: 'username',
    mode: 'upsert',
    groups,
    dateOrder: undefined,
    padIds: null,
    unknownCache: null,
    hr: NO_HR_CHOICES,
    ...over,
  };
}

describe('the Import view state', () => {
  it('keeps the extras the user gives and the last message apart', () => {
    const withExtras = importViewReducer(FIRST_IMPORT_VIEW_STATE, { type: 'extras', extras: credential('') });
    const both = importViewReducer(withExtras, { type: 'message', message: '3 rows queued.' });
    expect(both).toEqual({ extras: credential(''), message: '3 rows queued.' });
  });

  it('has no plan inputs until the cached e-mails are read, so a known address is never queued again', () => {
    expect(planInputsOf(sources({ emails: undefined }))).toBeNull();
    expect(planInputsOf(sources())).not.toBeNull();
  });

  it('does not plan the file again when a date of the extras is typed and no queued change deletes what they give', () => {
    const before = planInputsOf(sources({ extras: credential('2027-01-0') }));
    const after = planInputsOf(sources({ extras: credential('2027-01-01'), cachedSites: [101] }));
    expect(samePlanInputs(before, after)).toBe(true);
  });

  it('plans the file again when a queued change deletes what the extras give and a date of them changes', () => {
    const deletions = { credentials: new Map([['7-1', ['op-1']]]), courses: new Map() };
    const deletes: QueuedState = { ...NOTHING_QUEUED, deletions };
    const before = planInputsOf(sources({ queued: deletes, extras: credential('2027-01-0') }));
    const after = planInputsOf(sources({ queued: deletes, extras: credential('2027-01-01') }));
    expect(samePlanInputs(before, after)).toBe(false);
  });

  it('plans the file again when another column is chosen', () => {
    const before = planInputsOf(sources());
    expect(samePlanInputs(before, planInputsOf(sources({ mapping: { username: 1 } })))).toBe(false);
  });

  it('cannot queue while a file is still being read, even when everything else is settled', () => {
    const settled = {
      refusal: null,
      extrasProblem: null,
      encodingUndecided: false,
      siteid: 101,
      zerosUndecided: false,
    };
    expect(cannotQueueOf({ ...settled, reading: false })).toBe(false);
    expect(cannotQueueOf({ ...settled, reading: true })).toBe(true);
  });
});
