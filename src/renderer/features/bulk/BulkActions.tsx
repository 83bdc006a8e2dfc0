/**
 * Bulk actions on the selected users: change status, grant or revoke group
 * access or a feature, assign a credential (with the dates and number it
 * requires) or a course. A preview comes first; only what can work is queued;
 * "Undo" discards the batch before it is sent.
 */
import { personStatusChoice } from '../../app/person-status.ts';
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb, useSession } from '../../app/session.ts';
import { plural } from '../../app/words.ts';
import type { BulkPreset, QueuedBatch, SelectionActionProps } from '../../components/SelectionBar.tsx';
import { discardOps, enqueueOps, newId } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, personsWrite, queueAdded } from '../../outbox/runtime.ts';
import { KNOWN_STATUSES } from '../import/rows.ts';
import { loadBulkContext } from './context.ts';
import { courseChoices, credentialChoices, featureChoices, groupChoices } from '../../app/catalog.ts';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { sameSubject } from '../../app/live-query.ts';
import { ChoiceOptions } from '../../components/ChoiceOptions.tsx';
import { useChosenSite } from '../../app/SiteChoice.tsx';
import type { ChoiceGroup } from '../../app/catalog.ts';
import { previewBulk, type BulkAction, type BulkContext, type BulkPreview } from './plan.ts';
import type {
  CourseRecord,
  CredentialRecord,
  GroupRecord,
  ModuleRecord,
  UserRecord,
} from '../../../shared/records.ts';
import { RenewalNumbers } from './RenewalNumbers.tsx';
import { previewSummary } from './preview-words.ts';
import type { FieldbookDb } from '../../db/rows.ts';

type ActionType = BulkAction['type'];
const ACTION_LABELS: Record<ActionType, string> = {
  status: 'Change status',
  groupAccess: 'Group access',
  moduleAccess: 'Feature access',
  credential: 'Assign a credential',
  renew: 'Renew a credential',
  training: 'Assign training',
  credentialRemove: 'Remove a credential',
  trainingRemove: 'Remove training',
};

/** The word over the picker of each action (held in the action's name, as a screen reader reads it). */
const CHOICE_LABELS: Record<ActionType, string> = {
  status: '',
  groupAccess: 'Group',
  moduleAccess: 'Feature',
  credential: 'Credential',
  renew: 'Credential',
  training: 'Course',
  credentialRemove: 'Credential',
  trainingRemove: 'Course',
};

type BulkForm = {
  status: string;
  grant: boolean;
  choice: string;
  startdate: string;
  expirationdate: string;
  credentialnumber: string;
  notes: string;
  duedate: string;
};
type Catalog = {
  groups: GroupRecord[];
  modules: ModuleRecord[];
  credentials: CredentialRecord[];
  courses: CourseRecord[];
};

/** The action the form describes (with a renewal's numbers per person), or null while a required choice is missing. */
function actionOf(
  type: ActionType | null,
  form: BulkForm,
  catalog: Catalog,
  numbers: ReadonlyMap<number, string>,
): BulkAction | null {
  const chosen = Number(form.choice);
  const credential = catalog.credentials.find((c) => c.credentialid === chosen);
  const course = catalog.courses.find((c) => c.courseid === chosen);
  switch (type) {
    case 'status':
      return { type, status: form.status };
    case 'groupAccess': {
      const group = catalog.groups.find((g) => g.groupid === chosen);
      return group ? { type, grant: form.grant, group } : null;
    }
    case 'moduleAccess': {
      const module = catalog.modules.find((m) => m.accessID === chosen);
      return module
        ? { type, grant: form.grant, accessID: module.accessID, moduleName: module.moduleName }
        : null;
    }
    case 'credential':
      return credential
        ? {
            type,
            credential,
            startdate: form.startdate,
            expirationdate: form.expirationdate,
            credentialnumber: form.credentialnumber,
            notes: form.notes,
          }
        : null;
    case 'training':
      return course
        ? { type, courseid: course.courseid, courseName: course.coursename, duedate: form.duedate }
        : null;
    case 'renew':
      return credential
        ? { type, credential, startdate: form.startdate, expirationdate: form.expirationdate, numbers }
        : null;
    case 'credentialRemove':
      return credential ? { type, credential } : null;
    case 'trainingRemove':
      return course ? { type, courseid: course.courseid, courseName: course.coursename } : null;
    default:
      return null;
  }
}

/**
 * The picker's choices: the groups, credentials or courses of the site chosen (each naming its site when every one
 * is).
 */
function choicesFor(
  type: ActionType | null,
  catalog: Catalog,
  names: ReturnType<typeof useCatalogNames>,
  siteid: number | null,
) {
  return type === 'groupAccess'
    ? groupChoices(catalog.groups, names, siteid)
    : type === 'moduleAccess'
      ? featureChoices(catalog.modules, names)
      : type === 'credential' || type === 'renew' || type === 'credentialRemove'
        ? credentialChoices(catalog.credentials, names, siteid)
        : type === 'training' || type === 'trainingRemove'
          ? courseChoices(catalog.courses, names, siteid)
          : [];
}

/** Queues the drafts as one batch; its Undo discards that batch before it is sent. */
async function queueBatch(drafts: BulkPreview['drafts']): Promise<QueuedBatch | null> {
  const odb = outboxStore.getState().db;
  if (!odb) return null;
  const ops = await enqueueOps(odb, drafts, { batchId: newId() });
  await queueAdded(ops);
  const ids = ops.map((op) => op.id);
  const undo = async () => {
    await personsWrite((sending) => discardOps(odb, ids, outboxStore.getState().actor, { sending }));
  };
  return { count: ids.length, undo };
}

const NO_NUMBERS: ReadonlyMap<number, string> = new Map();

/** The people a preview is of, as read when it was asked for (their effective state). */
interface PreviewSubject {
  users: UserRecord[];
  ctx: BulkContext;
  userIds: readonly number[];
}

function previewOf(subject: PreviewSubject, action: BulkAction | null): BulkPreview | null {
  return action ? previewBulk(subject.users, action, subject.ctx) : null;
}

const EMPTY_FORM: BulkForm = {
  status: 'Inactive',
  grant: true,
  choice: '',
  startdate: '',
  expirationdate: '',
  credentialnumber: '',
  notes: '',
  duedate: '',
};

function formOf(preset: BulkPreset | undefined): BulkForm {
  return preset?.choice === undefined ? EMPTY_FORM : { ...EMPTY_FORM, choice: String(preset.choice) };
}

/** The groups, modules, credentials and courses the pickers offer (null while read). */
function useBulkCatalog(db: FieldbookDb | null) {
  return useLiveQuery(
    async () =>
      db
        ? {
            groups: await db.groups.toArray(),
            modules: await db.modules.toArray(),
            credentials: await db.credentials.toArray(),
            courses: await db.courses.toArray(),
          }
        : null,
    [db],
  );
}

/** The choice of action: a new one starts from an empty form, no numbers and no preview. */
function ActionChoice({
  type,
  onType,
}: {
  type: ActionType | null;
  onType: (type: ActionType | null) => void;
}) {
  return (
    <label>
      Bulk action{' '}
      <select value={type ?? ''} onChange={(e) => onType((e.target.value || null) as ActionType | null)}>
        <option value="">Choose…</option>
        {(Object.keys(ACTION_LABELS) as ActionType[]).map((t) => (
          <option key={t} value={t}>
            {ACTION_LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function BulkActions({ userIds, preset, onQueued }: SelectionActionProps) {
  const db = useActiveDb();
  const access = useSession((s) => s.activeProfile?.access ?? 'unknown');
  const catalog = useBulkCatalog(db);
  const names = useCatalogNames(db);
  // the site the coordinator looks after: its groups, credentials and courses only
  const { siteid } = useChosenSite();
  const [type, setType] = useState<ActionType | null>(preset?.type ?? null);
  const [form, setForm] = useState<BulkForm>(() => formOf(preset));
  // a renewal's new number per person, typed or pasted in the preview
  const [numbers, setNumbers] = useState<ReadonlyMap<number, string>>(NO_NUMBERS);
  const [made, setPreview] = useState<PreviewSubject | null>(null);
  // a preview is of the people it was made for: once the selection changes it is made again
  const subject = made && sameSubject(made.userIds, userIds) ? made : null;
  const action = (): BulkAction | null => (catalog ? actionOf(type, form, catalog, numbers) : null);
  // made again from the same people as the numbers are typed (the form's fields ask for a new preview)
  const preview = subject ? previewOf(subject, action()) : null;
  if (!db || !catalog) return null;

  const set = (patch: Partial<BulkForm>) => {
    setForm({ ...form, ...patch });
    setPreview(null);
  };
  const makePreview = async () => {
    if (!action()) return;
    const { users, ctx } = await loadBulkContext(db, userIds, access);
    setPreview({ users, ctx, userIds });
  };
  const queue = async () => {
    if (!preview || preview.drafts.length === 0) return;
    const batch = await queueBatch(preview.drafts);
    if (!batch) return;
    setPreview(null);
    onQueued(batch);
  };
  const credential =
    type === 'credential' || type === 'renew'
      ? catalog.credentials.find((c) => c.credentialid === Number(form.choice))
      : undefined;
  const options = choicesFor(type, catalog, names, siteid);
  return (
    <div className="bulk-actions">
      <ActionChoice
        type={type}
        onType={(next) => {
          setType(next);
          setForm(EMPTY_FORM);
          setNumbers(NO_NUMBERS);
          setPreview(null);
        }}
      />
      {type && <ActionPickers type={type} form={form} set={set} options={options} />}
      {type && <DetailFields type={type} form={form} set={set} credential={credential} />}
      {type && (
        <button type="button" onClick={() => void makePreview()} disabled={!action()}>
          Preview
        </button>
      )}
      {preview && (
        <PreviewPanel
          preview={preview}
          onQueue={() => void queue()}
          numbers={numbers}
          onNumbers={setNumbers}
        />
      )}
    </div>
  );
}

/** The status, grant-or-revoke and record pickers of an action, each with its label. */
function ActionPickers({
  type,
  form,
  set,
  options,
}: {
  type: ActionType;
  form: BulkForm;
  set: (patch: Partial<BulkForm>) => void;
  options: ChoiceGroup[];
}) {
  return (
    <>
      {type === 'status' && (
        <label>
          New status{' '}
          <select value={form.status} onChange={(e) => set({ status: e.target.value })}>
            {KNOWN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {personStatusChoice(s)}
              </option>
            ))}
          </select>
        </label>
      )}
      {(type === 'groupAccess' || type === 'moduleAccess') && (
        <label>
          Grant or revoke{' '}
          <select
            value={form.grant ? 'grant' : 'revoke'}
            onChange={(e) => set({ grant: e.target.value === 'grant' })}
          >
            <option value="grant">Grant</option>
            <option value="revoke">Revoke</option>
          </select>
        </label>
      )}
      {options.length > 0 && (
        <label>
          {CHOICE_LABELS[type]}{' '}
          {/* the name keeps the action's words ("Group access"), which hold the label shown */}
          <select
            aria-label={ACTION_LABELS[type]}
            value={form.choice}
            onChange={(e) => set({ choice: e.target.value })}
          >
            <option value="">Choose…</option>
            <ChoiceOptions groups={options} />
          </select>
        </label>
      )}
    </>
  );
}

function PreviewList({ title, lines }: { title: string; lines: BulkPreview['noops'] }) {
  if (lines.length === 0) return null;
  return (
    <details>
      <summary>
        {title} ({lines.length})
      </summary>
      <ul>
        {lines.slice(0, 200).map((l) => (
          <li key={l.user.userid}>
            {l.user.firstname} {l.user.lastname} ({l.user.username}): {l.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The dates, number and notes of a credential, or the due date of a course. */
function DetailFields({
  type,
  form,
  set,
  credential,
}: {
  type: ActionType;
  form: BulkForm;
  set: (patch: Partial<BulkForm>) => void;
  credential: CredentialRecord | undefined;
}) {
  return (
    <>
      {type === 'credential' && (
        <p className="hint">
          People who already hold it get the dates and number entered here (a renewal); empty fields are left
          as they are.
        </p>
      )}
      {type === 'credential' && (
        <>
          <label>
            Start date{credential?.requiredstartdate ? ' (required)' : ''}{' '}
            <input type="date" value={form.startdate} onChange={(e) => set({ startdate: e.target.value })} />
          </label>
          <label>
            Expiration date{credential?.requiredexpirationdate ? ' (required)' : ''}{' '}
            <input
              type="date"
              value={form.expirationdate}
              onChange={(e) => set({ expirationdate: e.target.value })}
            />
          </label>
          <label>
            Number{credential?.requiredcredentialnum ? ' (required)' : ''}{' '}
            <input
              value={form.credentialnumber}
              onChange={(e) => set({ credentialnumber: e.target.value })}
            />
          </label>
          <label>
            Notes <input value={form.notes} onChange={(e) => set({ notes: e.target.value })} />
          </label>
        </>
      )}
      {type === 'renew' && <RenewalDates form={form} set={set} />}
      {type === 'training' && (
        <p className="hint">People already assigned this course get the new due date.</p>
      )}
      {type === 'training' && (
        <label>
          Due date{' '}
          <input type="date" value={form.duedate} onChange={(e) => set({ duedate: e.target.value })} />
        </label>
      )}
    </>
  );
}

/** A renewal's dates for everyone; each person's number is given in the preview. */
function RenewalDates({ form, set }: { form: BulkForm; set: (patch: Partial<BulkForm>) => void }) {
  return (
    <>
      <p className="hint">
        Renews it for the selected people who hold it. Leave the start date empty to keep each person&apos;s;
        each new number is entered in the preview.
      </p>
      <label>
        Start date{' '}
        <input type="date" value={form.startdate} onChange={(e) => set({ startdate: e.target.value })} />
      </label>
      <label>
        Expiration date (required){' '}
        <input
          type="date"
          value={form.expirationdate}
          onChange={(e) => set({ expirationdate: e.target.value })}
        />
      </label>
    </>
  );
}

interface PreviewPanelProps {
  preview: BulkPreview;
  onQueue: () => void;
  numbers: ReadonlyMap<number, string>;
  onNumbers: (numbers: ReadonlyMap<number, string>) => void;
}

function PreviewPanel({ preview, onQueue, numbers, onNumbers }: PreviewPanelProps) {
  return (
    <div className="bulk-preview" role="region" aria-label="Preview">
      {/* what the form lacks is said as such, not as people skipped */}
      {preview.problems.length > 0 ? (
        <p role="alert" className="bulk-problems">
          {preview.problems.join(' ')}
        </p>
      ) : (
        <p>
          {previewSummary({
            queued: preview.drafts.length,
            skipped: preview.noops.length,
            refused: preview.refused.length,
          })}
        </p>
      )}
      {preview.renewals.length > 0 && (
        <RenewalNumbers rows={preview.renewals} numbers={numbers} onNumbers={onNumbers} />
      )}
      <PreviewList title="Will change" lines={preview.changes} />
      <PreviewList title="Nothing to change" lines={preview.noops} />
      <PreviewList title="Cannot be done" lines={preview.refused} />
      <button type="button" onClick={onQueue} disabled={preview.drafts.length === 0}>
        Queue {plural(preview.drafts.length, 'change')}
      </button>
    </div>
  );
}
