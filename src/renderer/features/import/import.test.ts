import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/universal';
import type { UserRecord } from '../../../shared/records.ts';
import { parseCsv, parseSpreadsheet } from './parse.ts';
import { draftsOf, emailsByUser, guessMapping, planImport, rowsOf } from './rows.ts';

const enc = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const ann: UserRecord = {
  userid: 7, siteid: 101, username: 'ann', firstname: 'Ann', lastname: 'Lee', employeeid: 'E7', status: 'Active', usertype: 'User', searchKeys: [], sortName: '',
};

async function planCsv(csv: string) {
  const parsed = parseCsv(csv);
  if (!parsed.ok) throw new Error(parsed.error);
  return planImport(rowsOf(parsed.sheet, guessMapping(parsed.sheet.headers)), [ann], 101);
}

describe('reading a spreadsheet of employees', () => {
  it('reads a CSV with its header row, whatever the header spelling', () => {
    const parsed = parseCsv('User Name,First Name,Last Name,Employee ID\nbo,Bo,Ray,E9\n');
    expect(parsed.ok && guessMapping(parsed.sheet.headers)).toEqual({ username: 0, firstname: 1, lastname: 2, employeeid: 3 });
    expect(parsed.ok && parsed.sheet.rows).toEqual([{ rowNumber: 2, cells: ['bo', 'Bo', 'Ray', 'E9'] }]);
  });

  it('reads an XLSX workbook', async () => {
    const blob = await writeXlsxFile([[{ value: 'username' }, { value: 'firstname' }, { value: 'lastname' }], [{ value: 'bo' }, { value: 'Bo' }, { value: 'Ray' }]]).toBlob();
    const parsed = await parseSpreadsheet('people.xlsx', await blob.arrayBuffer());
    expect(parsed.ok && parsed.sheet.rows[0]?.cells).toEqual(['bo', 'Bo', 'Ray']);
  });

  it('gives a clear error for a broken workbook', async () => {
    const parsed = await parseSpreadsheet('people.xlsx', enc('this is not a zip file'));
    expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining('not a readable Excel workbook') });
  });

  it('gives a clear error for a CSV with an unclosed quote', () => {
    expect(parseCsv('username,firstname\n"bo,Bo\n')).toMatchObject({ ok: false, error: expect.stringContaining('could not be read') });
  });

  it('refuses files of other kinds and empty files', async () => {
    expect(await parseSpreadsheet('people.pdf', enc('x'))).toMatchObject({ ok: false });
    expect(await parseSpreadsheet('people.csv', new ArrayBuffer(0))).toMatchObject({ ok: false, error: 'The file is empty.' });
  });
});

describe('validating and planning the import', () => {
  it('creates new people and updates known ones, matched by username', async () => {
    const plans = await planCsv('username,firstname,lastname,status\nann,Ann,Lee,Inactive\nbo,Bo,Ray,Active\n');
    expect(plans.map((p) => p.action)).toEqual(['update', 'create']);
    expect(plans[0]).toMatchObject({ changes: { status: 'Inactive' } });
  });

  it('matches by employee id when the username column is missing', async () => {
    const plans = await planCsv('employee id,first name,last name\nE7,Annie,Lee\n');
    expect(plans[0]).toMatchObject({ action: 'update', user: { userid: 7 }, changes: { firstname: 'Annie' } });
  });

  it('reports a row that changes nothing as unchanged', async () => {
    expect((await planCsv('username,firstname\nann,Ann\n'))[0]?.action).toBe('unchanged');
  });

  it('explains each invalid row', async () => {
    const plans = await planCsv('username,firstname,lastname,status,email\ncy,,Ode,Retired,not-an-email\n');
    expect(plans[0]).toMatchObject({ action: 'error' });
    const errors = plans[0]?.action === 'error' ? plans[0].errors : [];
    expect(errors).toEqual(expect.arrayContaining([expect.stringContaining('first name'), expect.stringContaining('Retired'), expect.stringContaining('not an e-mail')]));
  });

  it('refuses cells that look like spreadsheet formulas', async () => {
    const plans = await planCsv('username,firstname,lastname\ndee,"=HYPERLINK(""http://x"")",Lee\n');
    expect(plans[0]).toMatchObject({ action: 'error', errors: [expect.stringContaining('formula')] });
  });

  it('flags the same person twice in one file', async () => {
    const plans = await planCsv('username,firstname,lastname\nbo,Bo,Ray\nBO,Bo,Ray\n');
    expect(plans[1]).toMatchObject({ action: 'error', errors: ['Same person as row 2.'] });
  });

  it("queues a new user's e-mail to wait for the user's new id", async () => {
    const drafts = draftsOf(await planCsv('username,firstname,lastname,email\nbo,Bo,Ray,bo@example.com\n'), 101);
    expect(drafts.map((d) => d.op.kind)).toEqual(['user.create', 'email.add']);
    expect(drafts[1]).toMatchObject({ dependsOn: [drafts[0]!.id], bindings: [{ fromOp: drafts[0]!.id, field: 'userid' }] });
  });
});

describe('e-mail addresses of people already on the site', () => {
  const plan = (csv: string, known: string[]) => {
    const parsed = parseCsv(csv);
    if (!parsed.ok) throw new Error(parsed.error);
    const emails = emailsByUser(known.map((email, i) => ({ emailid: i + 1, userid: ann.userid, email, status: 'Active', isprimary: null })));
    return planImport(rowsOf(parsed.sheet, guessMapping(parsed.sheet.headers)), [ann], 101, emails);
  };

  it('adds an address the person does not have yet, and changes nothing else', () => {
    const plans = plan('username,email\nann,ann.lee@example.com\n', ['ann@example.com']);
    expect(plans).toMatchObject([{ action: 'update', changes: { email: 'ann.lee@example.com' } }]);
    expect(draftsOf(plans, 101).map((d) => d.op)).toEqual([{ kind: 'email.add', userid: 7, email: 'ann.lee@example.com' }]);
  });

  it('leaves a person alone whose address is already known, whatever its case', () => {
    expect(plan('username,email\nann,ANN@example.com\n', ['ann@example.com'])).toMatchObject([{ action: 'unchanged' }]);
  });

  it('queues a name change and a new address as two operations', () => {
    const drafts = draftsOf(plan('username,firstname,email\nann,Anna,ann.lee@example.com\n', []), 101);
    expect(drafts.map((d) => d.op.kind)).toEqual(['user.update', 'email.add']);
    expect(drafts[0]?.op).toEqual({ kind: 'user.update', userid: 7, changes: { firstname: 'Anna' } });
  });
});
