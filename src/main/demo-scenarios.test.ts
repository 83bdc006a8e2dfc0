/**
 * The demo's "another admin": each scenario changes the demo server as it says, and leaves pending people alone unless
 * asked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { applyDemoScenario } from './demo-scenarios.ts';

let server: RunningServer;
beforeEach(async () => {
  server = await startServer({ dataset: 'tiny', port: 0, today: '2026-11-27' });
});
afterEach(async () => {
  await server.close();
});

const person = (userid: number) => server.snapshot().users.find((u) => u.userid === userid);
const firstActive = () => server.snapshot().users.filter((u) => u.status === 'Active' && u.siteid < 900)[0]!;

describe('the demo’s scenarios', () => {
  it('renames two people, none of those with a pending change', () => {
    const pending = firstActive();
    const change = applyDemoScenario(server, {
      scenario: 'rename-people',
      pending: [{ userid: pending.userid }],
    });
    expect(change.changes).toHaveLength(2);
    expect(person(pending.userid)).toEqual(pending);
  });

  it('changes the status of the person with a pending change to one neither side has yet, so the edits meet', () => {
    const target = firstActive();
    const change = applyDemoScenario(server, {
      scenario: 'change-pending',
      pending: [{ userid: target.userid, status: 'Inactive' }],
    });
    expect(person(target.userid)?.status).toBe('Offline');
    expect(change.changes).toEqual([
      `Changed the status of ${target.firstname} ${target.lastname} from Active to Offline.`,
    ]);
  });

  it('takes the next person with a pending status change at each click, never the same one twice', () => {
    const [first, second] = server.snapshot().users.filter((u) => u.status === 'Active' && u.siteid < 900);
    const pending = [
      { userid: first!.userid, status: 'Inactive' },
      { userid: second!.userid, status: 'Inactive' },
    ];
    const once = applyDemoScenario(server, { scenario: 'change-pending', pending });
    const twice = applyDemoScenario(server, { scenario: 'change-pending', pending });
    expect(once.changes[0]).toContain(`${first!.firstname} ${first!.lastname}`);
    expect(twice.changes[0]).toContain(`${second!.firstname} ${second!.lastname}`);
    const before = server.snapshot();
    expect(() => applyDemoScenario(server, { scenario: 'change-pending', pending })).toThrow(
      /already changed everyone you have a pending status change for/,
    );
    expect(server.snapshot()).toEqual(before);
  });

  it('refuses when no pending change is a change of status (the two edits could not meet), and changes nothing', () => {
    const target = firstActive();
    const before = server.snapshot();
    expect(() =>
      applyDemoScenario(server, { scenario: 'change-pending', pending: [{ userid: target.userid }] }),
    ).toThrow(/None of your pending changes is a change of status/);
    expect(server.snapshot()).toEqual(before);
  });

  it('says a pending change is needed first, and changes nothing', () => {
    const before = server.snapshot();
    expect(() => applyDemoScenario(server, { scenario: 'change-pending' })).toThrow(
      /no pending change on a person yet/,
    );
    expect(server.snapshot()).toEqual(before);
  });

  it('renews the credential that expired first, for a year from today', () => {
    const expired = server
      .snapshot()
      .credentialAssignments.filter((a) => a.expirationdate < '2026-11-27')
      .sort((a, b) => a.expirationdate.localeCompare(b.expirationdate))[0]!;
    const change = applyDemoScenario(server, { scenario: 'renew-credential' });
    expect(server.snapshot().credentialAssignments.find((a) => a.id === expired.id)).toMatchObject({
      startdate: '2026-11-27',
      expirationdate: '2027-11-27',
    });
    expect(change.changes[0]).toMatch(/^Renewed .+ for .+: it now expires on .*2027/);
  });

  it('removes a credential and deletes a person with everything that was theirs', () => {
    const before = server.snapshot();
    applyDemoScenario(server, { scenario: 'remove-credential' });
    expect(server.snapshot().credentialAssignments).toHaveLength(before.credentialAssignments.length - 1);
    const change = applyDemoScenario(server, { scenario: 'delete-person' });
    const after = server.snapshot();
    const gone = before.users.find((u) => !after.users.some((a) => a.userid === u.userid))!;
    expect(change.changes).toEqual([
      `Deleted ${gone.firstname} ${gone.lastname} (with their credentials and training).`,
    ]);
    expect(after.trainingAssignments.filter((t) => t.userid === gone.userid)).toEqual([]);
    expect(after.credentialAssignments.filter((a) => a.userid === gone.userid)).toEqual([]);
    expect(after.emails.filter((e) => e.userid === gone.userid)).toEqual([]);
  });
});
