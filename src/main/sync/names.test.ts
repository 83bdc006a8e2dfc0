/**
 * The name book: the lists a sync reads, named as a coordinator knows them
 * ("the groups of Riverside Plant"), never by an id, even when a name is not known.
 */
import { describe, expect, it } from 'vitest';
import {
  NAME_MAX,
  NameBook,
  collectionFailure,
  fatalInWords,
  nameInMessage,
  retryNotice,
  tokenInPage,
} from './names.ts';
import { TASK_KINDS, makeTask, type TaskKind, type TaskScope } from './tasks.ts';

/** A scope for every kind, with ids that no message may show. */
const SCOPE: TaskScope = { siteid: 101, groupid: 4077, categoryid: 313, accessID: 919, credentialid: 7123 };
const taskOf = (kind: TaskKind) => makeTask(kind, SCOPE);

function filledBook(): NameBook {
  const book = new NameBook();
  book.observe(makeTask('sites'), [{ siteid: 101, sitename: 'Riverside Plant' }]);
  book.observe(makeTask('groups', { siteid: 101 }), [{ groupid: 4077, groupname: 'Night shift' }]);
  book.observe(makeTask('modules', { siteid: 101 }), [
    { accessID: 919, moduleName: 'Reports', functionName: 'Export' },
  ]);
  book.observe(makeTask('keptCredentialCategories', { siteid: 101 }), [
    { categoryid: 313, categoryname: 'Safety' },
  ]);
  book.observe(makeTask('credentials'), [{ credentialid: 7123, credentialname: 'Forklift Licence' }]);
  return book;
}

describe('a list described with the names the sync has read', () => {
  const book = filledBook();
  it.each([
    ['groups', 'the groups of Riverside Plant'],
    ['modules', 'the features of Riverside Plant'],
    ['courses', 'the courses of Riverside Plant'],
    ['trainingAssignments', 'the training assignments of Riverside Plant'],
    ['profileCategories', 'the profile categories of Riverside Plant'],
    ['credentialCategories', 'the credential categories of Riverside Plant'],
    ['siteCredentials', 'the credentials in Safety at Riverside Plant'],
    ['groupMembers', 'the members of Night shift at Riverside Plant'],
    ['groupAccess', 'the supervisors of Night shift at Riverside Plant'],
    ['moduleAccess', 'the users given Reports: Export at Riverside Plant'],
    ['credentialAssignments', 'the holders of Forklift Licence'],
    ['keptCredentialAssignments', 'the holders of Forklift Licence'],
    ['siteUsers', 'the users of Riverside Plant'],
    ['otherSiteUsers', 'the usernames and e-mails of Riverside Plant (not kept on this laptop)'],
    ['sites', 'the list of sites'],
  ] as const)('%s: "%s"', (kind, words) => {
    expect(book.describe(taskOf(kind))).toBe(words);
  });

  it("names a credential read from a kept site's category as well as from the customer-wide list", () => {
    const kept = new NameBook();
    kept.observe(makeTask('siteCredentials', { siteid: 101, categoryid: 313 }), [
      { credentialid: 7123, credentialname: 'Forklift Licence' },
    ]);
    expect(kept.describe(taskOf('keptCredentialAssignments'))).toBe('the holders of Forklift Licence');
  });
});

describe('a list whose names are not known', () => {
  it.each(TASK_KINDS)('%s is described in words, with no id', (kind) => {
    const words = new NameBook().describe(taskOf(kind));
    expect(words).not.toMatch(/\d/);
    expect(words).toMatch(/^the /);
  });

  it('says "a site", "a group", "a credential"', () => {
    const book = new NameBook();
    expect(book.describe(taskOf('groups'))).toBe('the groups of a site');
    expect(book.describe(taskOf('groupMembers'))).toBe('the members of a group at a site');
    expect(book.describe(taskOf('credentialAssignments'))).toBe('the holders of a credential');
  });

  it('treats an empty or blank name as not known, and forgets a name that became blank', () => {
    const book = filledBook();
    book.observe(makeTask('sites'), [{ siteid: 101, sitename: ' \n ' }]);
    expect(book.describe(taskOf('groups'))).toBe('the groups of a site');
  });
});

describe('a name from the API, as a message shows it', () => {
  it('is cut to a sensible length, ending with "…"', () => {
    const long = nameInMessage('Riverside '.repeat(40))!;
    expect([...long]).toHaveLength(NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(nameInMessage('Riverside Plant')).toBe('Riverside Plant');
  });

  it('loses newlines, control characters and direction overrides, and is never cut inside a character', () => {
    expect(nameInMessage('North\r\nDepot\u0007 \u202Eevil')).toBe('North Depot evil');
    const emoji = nameInMessage('🏭'.repeat(NAME_MAX + 5))!;
    expect([...emoji]).toHaveLength(NAME_MAX);
    expect(emoji).toBe(`${'🏭'.repeat(NAME_MAX - 1)}…`);
  });

  it('keeps markup as text (React shows it; nothing here interprets it)', () => {
    expect(nameInMessage('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('messages about a list', () => {
  const groups = makeTask('groups', { siteid: 101 });
  const list = 'the groups of Riverside Plant';
  const malformed = {
    code: 'malformed-response' as const,
    message:
      'The server’s answer did not have the expected shape, so it was not used. (/sites/101/access/groups: not JSON)',
  };

  it('a failed list names it in words and drops its route', () => {
    const own = collectionFailure(malformed, groups, list, true).message;
    expect(own).toBe(
      'The server’s answer did not have the expected shape, so it was not used. (not JSON) (while reading the groups of Riverside Plant)',
    );
    const child = collectionFailure(malformed, groups, list, false).message;
    expect(child).toMatch(/^Not synced, because the groups of Riverside Plant could not be read: /);
    expect(child).not.toContain('/sites/101');
  });

  it('a list stopped by a record that could not be read says which, after the list, and what that means for the cache', () => {
    const unreadable = {
      code: 'malformed-response' as const,
      message:
        'The platform’s answer could not be read: row 5, Maria Bailey: the e-mail address is not text. Nothing of it was used.',
    };
    const record = 'row 5, Maria Bailey: the e-mail address is not text';
    const after = 'Nothing was removed from this laptop; the next sync tries again.';
    expect(collectionFailure(unreadable, groups, list, true, record).message).toBe(
      `The groups of Riverside Plant could not be read: ${record}. ${after}`,
    );
    expect(collectionFailure(unreadable, groups, list, false, record).message).toBe(
      `Not synced, because the groups of Riverside Plant could not be read: ${record}. ${after}`,
    );
  });

  it('a failure that stops the sync names the list instead of its route', () => {
    const proxy = {
      code: 'not-the-api' as const,
      message: '/sites/101/access/groups: a page of 9 rows for a limit of 4 came back.',
    };
    expect(fatalInWords(proxy, groups, list).message).toBe(
      'The groups of Riverside Plant: a page of 9 rows for a limit of 4 came back.',
    );
    const revoked = { code: 'token-rejected' as const, message: 'The platform rejected the access token.' };
    expect(fatalInWords(revoked, groups, list)).toBe(revoked);
  });

  it('a retry notice begins with the list', () => {
    const busy = { attempt: 2, of: 4, error: { code: 'server' as const, message: 'The platform is busy.' } };
    expect(retryNotice(groups, list, busy)).toBe(
      'The groups of Riverside Plant: The platform is busy; retrying (2 of 4)…',
    );
  });

  it('the refusal of a page that echoes the token names the list', () => {
    expect(tokenInPage(list, 5)).toBe(
      "A page of the groups of Riverside Plant (from row 5) contains this profile's access token, so it was not stored.",
    );
  });
});
