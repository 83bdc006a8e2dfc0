/**
 * What an HR file needs the coordinator to say once per profile: how the
 * usernames of new people are made (the file has none), and what HR's own
 * status words mean on the platform. Both are remembered for the profile
 * (hr-files.ts) and asked again only for words not seen before.
 */
import { useMemo, useState } from 'react';
import { useSession } from '../../app/session.ts';
import type { Sheet } from './header.ts';
import type { ColumnMapping } from './mapping.ts';
import {
  HR_STATUS_DEFAULTS,
  hrStatusWords,
  loadHrChoices,
  NO_HR_CHOICES,
  RULE_CHOICES,
  saveHrChoices,
  USERNAME_RULES,
  type HrChoices,
} from './hr-files.ts';
import {
  PLATFORM_STATUSES,
  personStatusChoice,
  personStatusMeaning,
  type PlatformStatus,
} from '../../app/person-status.ts';

/** The active profile's choices, and a setter that remembers them for it. */
export function useHrChoices(): [HrChoices, (next: HrChoices) => void] {
  const profileId = useSession((s) => s.activeProfile?.id ?? null);
  const [own, setOwn] = useState<{ profileId: string | null; choices: HrChoices } | null>(null);
  // read once per profile: the same object until the coordinator changes it (the preview is planned again on a change)
  const stored = useMemo(() => (profileId ? loadHrChoices(profileId) : NO_HR_CHOICES), [profileId]);
  const choices = own?.profileId === profileId ? own.choices : stored;
  const set = (next: HrChoices) => {
    if (profileId) saveHrChoices(profileId, next);
    setOwn({ profileId, choices: next });
  };
  return [choices, set];
}

interface Props {
  sheet: Sheet;
  mapping: ColumnMapping;
  choices: HrChoices;
  onChange: (next: HrChoices) => void;
}

export function ImportHrChoices({ sheet, mapping, choices, onChange }: Props) {
  const statusColumn = mapping.status;
  const usernameColumn = mapping.username;
  const words = useMemo(
    () => (statusColumn === undefined ? [] : hrStatusWords(sheet.rows.map((r) => r.cells[statusColumn]))),
    [sheet, statusColumn],
  );
  const lacksUsernames = useMemo(
    () => usernameColumn === undefined || sheet.rows.some((r) => !r.cells[usernameColumn]?.trim()),
    [sheet, usernameColumn],
  );
  return (
    <>
      {lacksUsernames && <UsernameRuleChoice choices={choices} onChange={onChange} />}
      {words.length > 0 && <StatusWordsTable words={words} choices={choices} onChange={onChange} />}
    </>
  );
}

function UsernameRuleChoice({ choices, onChange }: Pick<Props, 'choices' | 'onChange'>) {
  return (
    <fieldset className="import-username-rule" aria-label="Usernames for new people">
      <legend>Usernames for new people</legend>
      <p>
        Some rows have no username. Choose once how Fieldbook makes one for a new person (remembered for this
        profile): lower case, accents dropped, and a number added when the name is taken (anna.muller2).
      </p>
      {USERNAME_RULES.map((rule) => (
        <label key={rule}>
          <input
            type="radio"
            name="username-rule"
            checked={choices.usernameRule === rule}
            onChange={() => onChange({ ...choices, usernameRule: rule })}
          />{' '}
          {RULE_CHOICES[rule]}
        </label>
      ))}
    </fieldset>
  );
}

function StatusWordsTable({
  words,
  choices,
  onChange,
}: { words: string[] } & Pick<Props, 'choices' | 'onChange'>) {
  const chosen = (word: string): PlatformStatus | '' =>
    choices.statusWords[word.toLowerCase()] ?? HR_STATUS_DEFAULTS[word.toLowerCase()] ?? '';
  const choose = (word: string, status: string) => {
    const statusWords = { ...choices.statusWords };
    if ((PLATFORM_STATUSES as readonly string[]).includes(status))
      statusWords[word.toLowerCase()] = status as PlatformStatus;
    else delete statusWords[word.toLowerCase()];
    onChange({ ...choices, statusWords });
  };
  return (
    <fieldset className="import-status-words" aria-label="Status words of the file">
      <legend>What the file's status words mean on the platform</legend>
      <table aria-label="Status words">
        <thead>
          <tr>
            <th scope="col">In the file</th>
            <th scope="col">On the platform</th>
          </tr>
        </thead>
        <tbody>
          {words.map((word) => (
            <tr key={word}>
              <td>{word}</td>
              <td>
                <select
                  aria-label={`Platform status for "${word}"`}
                  value={chosen(word)}
                  onChange={(e) => choose(word, e.target.value)}
                >
                  <option value="">Choose… (rows with it are not queued)</option>
                  {PLATFORM_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {personStatusChoice(s)}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="status-meanings">
        {PLATFORM_STATUSES.map((s) => (
          <li key={s}>
            {s}: {personStatusMeaning(s)}
          </li>
        ))}
      </ul>
      <p>Your choices are remembered for this profile.</p>
    </fieldset>
  );
}
