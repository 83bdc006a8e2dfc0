/** The one "soon" window every view, the dashboard and the report count with. */
import { useState } from 'react';
import { DEFAULT_SOON_DAYS, MAX_SOON_DAYS, useSoonWindow } from '../../app/soon-window.ts';
import { plural } from '../../app/words.ts';

export function SoonWindowPanel() {
  const days = useSoonWindow((s) => s.days);
  const setDays = useSoonWindow((s) => s.setDays);
  // what is typed, kept while it is not (yet) a whole number in range
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? String(days);
  const valid = /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_SOON_DAYS;
  const within = plural(days, 'day');
  return (
    <section className="panel" aria-labelledby="soon-heading">
      <h2 id="soon-heading">Expiring soon and due soon</h2>
      <label className="days-input">
        Within (days){' '}
        <input
          type="number"
          min={1}
          max={MAX_SOON_DAYS}
          value={value}
          aria-invalid={!valid}
          aria-describedby="soon-hint"
          onChange={(e) => {
            setTyped(e.target.value);
            const n = Number(e.target.value);
            if (/^\d+$/.test(e.target.value) && n >= 1 && n <= MAX_SOON_DAYS) setDays(n);
          }}
          onBlur={() => setTyped(null)}
        />
      </label>
      <p id="soon-hint" className={valid ? 'hint' : 'error-text'}>
        {valid
          ? `A credential expiring within ${within}, or training due within ${within}, counts as soon in every list, the dashboard and the report. Default ${DEFAULT_SOON_DAYS}.`
          : `Type a whole number of days from 1 to ${MAX_SOON_DAYS}; ${within} stays in use until then.`}
      </p>
    </section>
  );
}
