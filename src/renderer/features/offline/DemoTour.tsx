/**
 * The demo's guided tour: the day of a coordinator in eight steps, from
 * working offline to undoing a batch. Shown on the welcome screen's demo card
 * and above the demo's "another admin" buttons; hidden for good once dismissed
 * (remembered on this computer).
 */
import { useState } from 'react';

const DISMISSED_KEY = 'fieldbook.demoTourDismissed';

const STEPS: readonly string[] = [
  'Turn on “Work offline” in the header: from now on nothing is fetched or sent.',
  'Change something: on Users, select a few people and change their status. The change waits in the Outbox.',
  'Under Connection & sync, make changes on the server as another admin would: rename two people, and change someone you have a pending change for.',
  'Turn “Work offline” off: your changes are sent, and the site is synced.',
  'Conflicts: where the other admin changed what you changed, see both, field by field, and choose.',
  'Since last sync: what the other admin changed while you were away.',
  'Report: the site’s compliance, to print or export for the site manager.',
  'Outbox: undo a batch that turned out wrong, after seeing what the undo will do.',
];

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function DemoTour() {
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (dismissed) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // storage refused: hidden for this session only
    }
    setDismissed(true);
  };
  return (
    <section className="demo-tour" aria-labelledby="demo-tour-heading">
      <h3 id="demo-tour-heading">A tour of the demo</h3>
      <ol>
        {STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <button type="button" onClick={dismiss}>
        Hide the tour
      </button>
    </section>
  );
}
