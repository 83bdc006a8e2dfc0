/** The options of a picker in sorted, labelled option groups (see app/catalog.ts). */
import type { ChoiceGroup } from '../app/catalog.ts';

export function ChoiceOptions({ groups }: { groups: readonly ChoiceGroup[] }) {
  return (
    <>
      {groups.map((g) => (
        <optgroup key={g.label} label={g.label}>
          {g.choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
