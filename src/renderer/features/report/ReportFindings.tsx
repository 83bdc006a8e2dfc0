/**
 * "Act on the findings": on screen only (never printed), the people the report
 * finds, by finding type and, when chosen, one credential or course, as a list
 * to select and hand to the bulk actions, as every other list of people. Each
 * number offered is the length of the list it opens, and the report's
 * "Findings by type" counts the same people.
 */
import { useCallback, useMemo, useState } from 'react';
import { formatDate } from '../../app/format.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import { SelectionBar, useRowSelection, type BulkPreset } from '../../components/SelectionBar.tsx';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import type { ComplianceReport } from './build.ts';
import {
  findingChoices,
  findingPreset,
  peopleWithFinding,
  type FindingChoice,
  type FindingPerson,
} from './findings.ts';
import type { FindingType } from './model.ts';

const personOf = (p: FindingPerson) => p.userid;
const people = (n: number) => plural(n, 'person', 'people');

const findingText = (p: FindingPerson) =>
  p.findings.map((f) => (f.date ? `${f.item} (${formatDate(f.date)})` : f.item)).join(', ');
const groupText = (p: FindingPerson) => p.groups.join(', ');

const columns: Column<FindingPerson>[] = [
  {
    id: 'person',
    header: 'Person',
    width: 'minmax(12rem, 1fr)',
    render: (p) => (
      <a href={hrefFor('users', p.userid)} tabIndex={-1}>
        {p.person}
      </a>
    ),
    fitText: (p) => p.person,
  },
  {
    id: 'employeeid',
    header: 'Employee ID',
    width: '8rem',
    render: (p) => p.employeeid,
    fitText: (p) => p.employeeid,
  },
  // the finding and the group take the room their text needs (up to the grid's limit), the person's name what is left
  {
    id: 'findings',
    header: 'Finding',
    width: 'minmax(14rem, 4fr)',
    render: findingText,
    fitText: findingText,
  },
  { id: 'groups', header: 'Group', width: 'minmax(8rem, 1fr)', render: groupText, fitText: groupText },
];

/** The picker's word for a finding type's items. */
function itemWord(type: FindingType): string {
  return type === 'Missing'
    ? 'Credential or course'
    : type === 'Expired' || type === 'Expires soon'
      ? 'Credential'
      : 'Course';
}

function FindingList({
  list,
  label,
  preset,
}: {
  list: FindingPerson[];
  label: string;
  preset: BulkPreset | undefined;
}) {
  const loadMatching = useCallback(async () => list.map(personOf), [list]);
  const selection = useRowSelection(list, personOf, loadMatching);
  return (
    <>
      <SelectionBar
        store={selection.store}
        matchCount={list.length}
        loadMatching={loadMatching}
        preset={preset}
      />
      <VirtualGrid
        label={label}
        rows={list}
        rowKey={personOf}
        columns={columns}
        size="short"
        {...selection.grid}
        rowLabel={(p) => p.person}
        onActivate={(p) => navigate('users', p.userid)}
        emptyText="Nobody in this report has this finding."
      />
    </>
  );
}

function Pickers({
  choices,
  chosen,
  item,
  onType,
  onItem,
}: {
  choices: FindingChoice[];
  chosen: FindingChoice;
  item: string | null;
  onType: (t: FindingType) => void;
  onItem: (key: string | null) => void;
}) {
  return (
    <>
      <label>
        Finding{' '}
        <select value={chosen.type} onChange={(e) => onType(e.target.value as FindingType)}>
          {choices.map((c) => (
            <option key={c.type} value={c.type}>
              {c.type} ({people(c.people)})
            </option>
          ))}
        </select>
      </label>
      <label>
        {itemWord(chosen.type)}{' '}
        <select value={item ?? ''} onChange={(e) => onItem(e.target.value || null)}>
          <option value="">All ({people(chosen.people)})</option>
          {chosen.items.map((i) => (
            <option key={i.itemKey} value={i.itemKey}>
              {i.item} ({people(i.people)})
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

export function ReportFindings({ report }: { report: ComplianceReport }) {
  const choices = useMemo(() => findingChoices(report), [report]);
  const [type, setType] = useState<FindingType | null>(null);
  const [itemKey, setItemKey] = useState<string | null>(null);
  // the type chosen, else the most urgent one that finds someone
  const chosen = choices.find((c) => c.type === type) ?? choices.find((c) => c.people > 0) ?? choices[0];
  const item = chosen?.items.some((i) => i.itemKey === itemKey) ? itemKey : null;
  const list = useMemo(
    () => (chosen ? peopleWithFinding(report, chosen.type, item) : []),
    [report, chosen, item],
  );
  if (!chosen) return null;
  const itemName = chosen.items.find((i) => i.itemKey === item)?.item;
  const label = `People with ${chosen.type}${itemName ? `: ${itemName}` : ''}`;
  return (
    <section className="panel no-print report-findings" aria-labelledby="report-findings-heading">
      <h2 id="report-findings-heading">Act on the findings</h2>
      <div className="toolbar">
        <Pickers
          choices={choices}
          chosen={chosen}
          item={item}
          onType={(t) => {
            setType(t);
            setItemKey(null);
          }}
          onItem={setItemKey}
        />
        <p role="status" className="count">
          {people(list.length)}
        </p>
      </div>
      {/* a new list is a new selection: what was selected in another stays there */}
      <FindingList
        key={`${chosen.type} ${item ?? ''}`}
        list={list}
        label={label}
        preset={findingPreset(chosen.type, item)}
      />
    </section>
  );
}
