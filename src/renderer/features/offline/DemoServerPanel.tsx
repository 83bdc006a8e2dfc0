/**
 * The demo only: "Make changes on the server as another admin would". Each
 * button applies a named scenario to the demo's server (main refuses it for
 * any other profile); the cache learns of it at the next sync, as it would of a
 * colleague's edits, so "Since last sync" and conflicts can be tried alone.
 */
import { useState } from 'react';
import type { DemoServerChange, DemoServerScenario } from '../../../shared/ipc.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { request, useActiveDb, useSession } from '../../app/session.ts';
import { DemoTour } from './DemoTour.tsx';
import { outboxOps } from '../../../shared/replay-queue/packs.ts';

const SCENARIO_LABELS: Record<DemoServerScenario, string> = {
  'rename-people': 'Rename two people',
  'change-status': 'Change the status of two people',
  'renew-credential': 'Renew an expired credential',
  'remove-credential': 'Remove a credential',
  'delete-person': 'Delete a person',
  'change-pending': 'Change the status of someone you have a pending change for',
};

const SCENARIOS = Object.keys(SCENARIO_LABELS) as DemoServerScenario[];

type PendingPerson = { userid: number; status?: string };

/** People the queued, unsent changes are about (first queued first), with the status queued for them, if any. */
async function pendingPeople(db: FieldbookDb | null): Promise<PendingPerson[]> {
  if (!db) return [];
  const ops = (await outboxOps(db, (op) => op.status === 'pending')).sort((a, b) => a.seq - b.seq);
  const people = new Map<number, PendingPerson>();
  for (const { op } of ops) {
    if (!('userid' in op)) continue;
    // the status queued for them, by whichever of their changes holds one
    const status = op.kind === 'user.update' ? op.changes.status : undefined;
    const known = people.get(op.userid);
    if (status !== undefined) people.set(op.userid, { userid: op.userid, status });
    else if (!known) people.set(op.userid, { userid: op.userid });
  }
  // those with a status queued first: the only ones a change of status on the server meets
  const withStatusFirst = [...people.values()].sort(
    (a, b) => Number(b.status !== undefined) - Number(a.status !== undefined),
  );
  return withStatusFirst.slice(0, 20);
}

export function DemoServerPanel() {
  const api = useSession((s) => s.api);
  const db = useActiveDb();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<DemoServerChange[]>([]);
  if (!api) return null;
  const apply = async (scenario: DemoServerScenario) => {
    setBusy(true);
    const pending = await pendingPeople(db);
    const change = await request(() => api['demo:serverChange']({ scenario, pending }));
    setBusy(false);
    if (change) setDone((list) => [...list, change]);
  };
  return (
    <section className="panel demo-server" aria-labelledby="demo-server-heading">
      <h2 id="demo-server-heading">Make changes on the server as another admin would</h2>
      <DemoTour />
      <p>
        The demo site’s server runs on this computer. These buttons change it the way a colleague in the
        platform’s web admin would: this computer learns of it at the next sync, under “Since last sync”. Try
        them while working offline, with changes of your own waiting: when you go back online, yours meet
        theirs.
      </p>
      <div className="actions">
        {SCENARIOS.map((scenario) => (
          <button key={scenario} type="button" disabled={busy} onClick={() => void apply(scenario)}>
            {SCENARIO_LABELS[scenario]}
          </button>
        ))}
      </div>
      {done.length > 0 && (
        <ul aria-label="Changes made on the server" className="demo-server-changes">
          {done.flatMap((change, i) => change.changes.map((line) => <li key={`${i}-${line}`}>{line}</li>))}
        </ul>
      )}
    </section>
  );
}
