/**
 * The preview started while the worker still reads the file: each slice of rows that arrives is mapped and planned
 * at once, with the header row, columns and settings the view will choose once the whole file is read (the header is
 * found in the first 30 rows). Each row is planned as if it were the only row of the file: once every row is read,
 * the preview's plan takes those plans for the rows no other row, derived username or site not kept changes
 * (`planImportInSlices`), and plans the others itself. When the view then chooses other settings than the ones
 * guessed (another header row, a preset, a cache read again meanwhile), nothing made ahead is taken.
 */
import type { RawRow } from './read/table.ts';
import { findHeaderRow, sheetOf, type Sheet } from './header.ts';
import { planAloneInSlices, type EarlyPlans, type ImportRow, type RowPlan } from './match.ts';
import { matchOptionsOf, type PlanInputs } from './plan-inputs.ts';
import { rowOf } from './rows.ts';
import { samePlanInputs } from './import-view-state.ts';
import type { ColumnMapping } from './mapping.ts';

/** What was made ahead, for a plan of the same inputs; `at`: the row's place among the sheet's rows. */
export interface MadeAhead {
  /** the row as mapped for these inputs' columns; undefined: not mapped yet (or another row is at that place) */
  rowOf: (raw: RawRow, at: number) => ImportRow | undefined;
  early: EarlyPlans;
}

/** How many rows the header row is looked for in (findHeaderRow): the first slice that holds them decides it. */
const HEADER_ROWS = 30;

/**
 * The preview's work made while a file is read; `inputsFor`: the plan inputs the view would choose for a header. The
 * rows mapped and their plans are kept in lists by their place below the header, not in maps by row: 100,000 keys of
 * a WeakMap cost more to set, and to every garbage collection, than the plans themselves (a profile of the bench).
 */
export class HeadStart {
  private readonly rows: ImportRow[] = [];
  private readonly plans: RowPlan[] = [];
  private guessed: PlanInputs | null = null;
  private arrived: readonly RawRow[] = [];
  /** the index in `arrived` of the header's next row, the first below it, and of the next row to plan */
  private first = -1;
  private next = -1;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly inputsFor: (header: Sheet) => PlanInputs | null;

  constructor(inputsFor: (header: Sheet) => PlanInputs | null) {
    this.inputsFor = inputsFor;
  }

  /** The rows read so far (the reader's own list, growing): the new ones are planned. */
  add(read: readonly RawRow[]): void {
    if (this.stopped) return;
    this.arrived = read;
    if (this.next < 0) this.guess(read);
    if (this.guessed && !this.running) this.running = this.run();
  }

  /** Settles once the rows arrived so far are planned (or planning ahead stopped). */
  async planned(): Promise<void> {
    await this.running;
  }

  /** No more planning ahead: the file was read (its plan takes over), dropped again or replaced. */
  stop(): void {
    this.stopped = true;
  }

  /** What was made ahead when `inputs` are the ones it was made for (the file's sheet aside); planning ahead stops. */
  take(inputs: PlanInputs): MadeAhead | null {
    if (!this.guessed || !sameButSheet(this.guessed, inputs)) return null;
    this.stop();
    const { rows, plans, arrived, first } = this;
    return {
      rowOf: (raw, at) => (arrived[first + at] === raw ? rows[at] : undefined),
      early: (row, at) => (rows[at] === row ? plans[at] : undefined),
    };
  }

  private guess(read: readonly RawRow[]): void {
    if (read.length < HEADER_ROWS) return;
    const headerIndex = findHeaderRow(read);
    const header = sheetOf(read.slice(0, headerIndex + 1), headerIndex);
    this.guessed = this.inputsFor(header);
    this.first = headerIndex + 1;
    this.next = this.first;
  }

  private async run(): Promise<void> {
    const inputs = this.guessed!;
    const options = matchOptionsOf(inputs);
    const { users, siteid, emails, mapping, padIds } = inputs;
    while (!this.stopped && this.next < this.arrived.length) {
      const from = this.next - this.first;
      const rows = this.arrived.slice(this.next).map((raw) => rowOf(raw, mapping, padIds));
      for (const row of rows) this.rows.push(row);
      this.next = this.arrived.length;
      const each = (i: number, plan: RowPlan) => {
        this.plans[from + i] = plan;
      };
      if (!(await planAloneInSlices(rows, users, siteid, emails, options, each, () => this.stopped))) break;
    }
    this.running = null;
  }
}

/** The same plan inputs but for the sheet (read whole only later) and the columns' mapping (compared by value). */
function sameButSheet(guessed: PlanInputs, inputs: PlanInputs): boolean {
  const header = (s: Sheet) => `${s.headerRowNumber}:${JSON.stringify(s.headers)}`;
  if (header(guessed.sheet) !== header(inputs.sheet) || !sameMapping(guessed.mapping, inputs.mapping))
    return false;
  return samePlanInputs({ ...guessed, sheet: inputs.sheet, mapping: inputs.mapping }, inputs);
}

function sameMapping(a: ColumnMapping, b: ColumnMapping): boolean {
  const keys = Object.keys(a) as (keyof ColumnMapping)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

let current: HeadStart | null = null;

/** Starts planning ahead for a file being read; the one before stops. */
export function startHeadStart(inputsFor: (header: Sheet) => PlanInputs | null): HeadStart {
  current?.stop();
  current = new HeadStart(inputsFor);
  return current;
}

/** What was made ahead for these plan inputs, if anything; planning ahead then stops. */
export function takeHeadStart(inputs: PlanInputs): MadeAhead | null {
  return current?.take(inputs) ?? null;
}
