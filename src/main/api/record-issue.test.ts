/**
 * A record of the platform's answer that could not be read, as a coordinator
 * reads it: which row, which record (by its name where it has one), which field
 * and what is wrong, in words. No route, API field name or zod message.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemas, type SchemaName } from '../../shared/api/wire.ts';
import { RAW_FIELD_NAMES, fieldLabel, knownFieldInSentence } from '../../shared/field-words.ts';
import { problemInWords, recordIssue } from './record-issue.ts';

const maria = {
  userid: 123,
  siteid: 1,
  username: 'mbailey',
  firstname: 'Maria',
  lastname: 'Bailey',
  status: 'Active',
};

/** The words for the first bad record of `list` (read as `schema`), counted from `startrow`. */
function words(schema: SchemaName, list: unknown[], startrow = 1): string {
  const parsed = z.array(schemas[schema]).safeParse(list);
  if (parsed.success) throw new Error('the list is valid');
  return recordIssue(parsed.error, list, schema, startrow);
}

/** What is wrong with `value`, as zod's issue about it under `schema` reads in words. */
function problem(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('the value is valid');
  return problemInWords(parsed.error.issues[0]!, value);
}

describe('what is wrong with a value, in words', () => {
  it('says a value is missing, whether absent or null', () => {
    expect(problem(z.number(), undefined)).toBe('is missing');
    expect(problem(z.string(), null)).toBe('is missing');
  });

  it('says what kind of value was expected', () => {
    expect(problem(z.number(), 'twelve')).toBe('is not a number');
    expect(problem(z.number().int(), 1.5)).toBe('is not a whole number');
    expect(problem(z.string(), 12)).toBe('is not text');
    expect(problem(z.date(), '12/31/2026')).toBe('is not a date');
    expect(problem(z.iso.date(), '31.12.2026')).toBe('is not a date');
    expect(problem(z.boolean(), 'maybe')).toBe('is not yes or no');
  });

  it('says text is too long, and how long it may be', () => {
    expect(problem(z.string().max(80), 'x'.repeat(81))).toBe('is too long (at most 80 characters)');
  });

  it('says an e-mail address is not a valid one', () => {
    expect(problem(z.email(), 'maria.bailey@')).toBe('is not a valid e-mail address');
  });

  it('lists the allowed values when there are few, and only says so when there are many', () => {
    expect(problem(z.enum(['Active', 'Inactive']), 'Gone')).toBe(
      'is not one of the allowed values (“Active”, “Inactive”)',
    );
    expect(problem(z.enum(['a', 'b', 'c', 'd', 'e', 'f']), 'g')).toBe('is not one of the allowed values');
  });

  it('says a value is not in the form Fieldbook expects when zod says nothing more useful', () => {
    expect(problem(z.array(z.string()), 'one, two')).toBe('is not in the form Fieldbook expects');
    expect(
      problem(
        z.string().refine((s) => s.startsWith('A')),
        'Bob',
      ),
    ).toBe('is not in the form Fieldbook expects');
  });
});

describe('a record the platform sent that could not be read', () => {
  it('names a person by their name, the field in words, and the row in the whole list', () => {
    const list = [
      maria,
      { ...maria, userid: 124, email: [{ emailid: 7, email: { address: 'maria@example.com' } }] },
    ];
    expect(words('user', list, 11)).toBe('row 12, Maria Bailey: the e-mail address is not text');
  });

  it('names a person by their username when they have no readable name', () => {
    expect(words('user', [{ ...maria, firstname: null, lastname: false, status: { code: 1 } }])).toBe(
      'row 1, mbailey: the status is not text',
    );
  });

  it('names a record with no readable name by what it is and its id', () => {
    const nameless = { userid: 123, siteid: 1, username: { first: 'M' }, firstname: ['Maria'], lastname: 7 };
    expect(words('user', [nameless])).toBe('row 1, a person (id 123): the username is not text');
    expect(words('groupMember', [maria, { userid: 55, employeeid: true }])).toBe(
      'row 2, a person (id 55): the employee ID is not text',
    );
  });

  it('names a record by what it is alone when neither its name nor its id can be read', () => {
    expect(
      words('user', [
        { ...maria, firstname: undefined, lastname: undefined, username: undefined, userid: 'abc' },
      ]),
    ).toBe('row 1, a person: the id is not a number');
  });

  it('names the other kinds of record by their noun and name', () => {
    expect(words('course', [{ courseid: 9, coursename: 'Forklift Safety', coursetype: 'online' }])).toBe(
      'row 1, the course “Forklift Safety”: the course type is not a number',
    );
    expect(words('site', [{ siteid: 0, sitename: 'Riverside Plant' }])).toBe(
      'row 1, the site “Riverside Plant”: the id is not a positive number',
    );
    expect(words('group', [{ groupid: 4, groupname: { en: 'Crew' } }])).toBe(
      'row 1, a group (id 4): the name is not text',
    );
    expect(words('module', [{ accessID: 3, moduleName: 'Reports', functionName: true }])).toBe(
      'row 1, the feature “Reports”: the function is not text',
    );
    expect(words('email', [{ emailid: 8, email: ['a@b.example'] }])).toBe(
      'row 1, an e-mail address (id 8): the e-mail address is not text',
    );
  });

  it('names an assignment by its person, and the record it points to as "the id of" that record', () => {
    const training = {
      transcriptid: 77,
      userid: 123,
      firstname: 'Maria',
      lastname: 'Bailey',
      course_name: 'Forklift Safety',
    };
    expect(words('trainingAssignment', [training])).toBe(
      'row 1, the training assignment of Maria Bailey: the id of the course is missing',
    );
    const holding = {
      credentialid: 5,
      userid: 123,
      firstname: 'Maria',
      lastname: 'Bailey',
      expirationdate: { y: 2027 },
    };
    expect(words('credentialAssignment', [holding])).toBe(
      'row 1, Maria Bailey: the expiration date is not text',
    );
    expect(words('credentialAssignment', [{ credentialid: 'five', userid: 123 }])).toBe(
      'row 1, a holder (id 123): the id of the credential is not a number',
    );
    expect(
      words('credentialAssignment', [{ credentialid: 5, userid: 0, firstname: 'Maria', lastname: 'Bailey' }]),
    ).toBe('row 1, Maria Bailey: the id of the person is not a positive number');
  });

  it('names a field inside one of a person’s e-mails', () => {
    expect(words('user', [{ ...maria, email: [{ emailid: 'x7', email: 'maria@example.com' }] }])).toBe(
      'row 1, Maria Bailey: the id of an e-mail address is not a number',
    );
  });

  it('says what is wrong with a field as a whole when the fault is inside it (links have no fields)', () => {
    expect(words('user', [{ ...maria, links: { self: true } }])).toBe(
      'row 1, Maria Bailey: the links are not in the form Fieldbook expects',
    );
  });

  it('says "missing" of a null only where the field must be there; elsewhere a null is a value of the wrong kind', () => {
    expect(words('user', [{ ...maria, siteid: null }])).toBe(
      'row 1, Maria Bailey: the id of the site is missing',
    );
    expect(words('course', [{ courseid: 9, coursename: 'Forklift Safety', coursetype: null }])).toBe(
      'row 1, the course “Forklift Safety”: the course type is not a number',
    );
  });

  it('speaks of a field named in the plural in the plural', () => {
    const holding = {
      credentialid: 5,
      userid: 123,
      firstname: 'Maria',
      lastname: 'Bailey',
      notes: ['renewed'],
    };
    expect(words('credentialAssignment', [holding])).toBe('row 1, Maria Bailey: the notes are not text');
  });

  it('says a row is empty, or not a record at all', () => {
    expect(words('user', [maria, null])).toBe('row 2 is empty');
    expect(words('user', ['Maria Bailey'])).toBe('row 1 is not a person Fieldbook can read');
  });

  it('names a field not in the table of field words by a sentence that does not pretend to know it', () => {
    const later = z.array(z.object({ shoesize: z.number() }).loose());
    const list = [{ ...maria, shoesize: 'large' }];
    const parsed = later.safeParse(list);
    expect(parsed.success).toBe(false);
    expect(recordIssue(parsed.error!, list, 'user', 1)).toBe(
      'row 1, Maria Bailey: a value the platform calls “shoesize” is not a number',
    );
  });

  it('cuts a long name and takes its control characters out', () => {
    const long = { ...maria, firstname: 'Maria\u202e\nAnna', lastname: 'B'.repeat(80), status: true };
    const message = words('user', [long]);
    expect(message).toMatch(/^row 1, Maria Anna B+…: the status is not text$/);
  });
});

describe('the table of field words', () => {
  it('has words for every field of every record the platform sends', () => {
    const fields = Object.values(schemas).flatMap((schema) => Object.keys(schema.shape));
    expect(fields.filter((field) => knownFieldInSentence(field) === null)).toEqual([]);
  });
});

describe('no API field name, route or zod message in the words', () => {
  /** A value each field of a wire schema accepts, found by trying a few. */
  function validRecord(schema: SchemaName): Record<string, unknown> {
    const shape = schemas[schema].shape as Record<string, z.ZodType>;
    return Object.fromEntries(
      Object.entries(shape).map(([field, type]) => [
        field,
        [7, 'Ann', []].find((v) => type.safeParse(v).success),
      ]),
    );
  }
  const BAD_VALUES: unknown[] = [
    null,
    true,
    -1,
    'not a number',
    { nested: { deeper: true } },
    [{ nested: true }],
  ];
  // the raw names a person could not read as words (a label that is the name itself, "status", is fine)
  const RAW_NAMES = RAW_FIELD_NAMES.filter((name) => fieldLabel(name).toLowerCase() !== name.toLowerCase());

  it('for every field of every record, whatever the bad value', () => {
    const messages: string[] = [];
    for (const schema of Object.keys(schemas) as SchemaName[]) {
      const valid = validRecord(schema);
      expect(z.array(schemas[schema]).safeParse([valid]).success, schema).toBe(true);
      for (const field of Object.keys(valid)) {
        for (const bad of BAD_VALUES) {
          const list = [valid, { ...valid, [field]: bad }];
          if (!z.array(schemas[schema]).safeParse(list).success) messages.push(words(schema, list));
        }
      }
    }
    expect(messages.length).toBeGreaterThan(100);
    for (const message of messages) {
      expect(message).toMatch(/^row 2, /);
      expect(message).not.toMatch(/[/{}[\]]|Invalid|expected|received|undefined|calls/);
      for (const name of RAW_NAMES) expect(message, message).not.toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});
