/**
 * A virtualised, keyboard-driven grid for long lists (20,000 users render as a
 * few dozen rows). One tab stop; arrows, Page Up/Down, Home/End move the active
 * row (aria-activedescendant), Space/Shift select, Enter opens, Delete undoes the
 * row's pending change. Screen readers get role=grid with the full row count.
 * A selectable grid starts with a checkbox column; a shift-click selects a range
 * of rows, never a range of text.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useRowVirtualizer } from './virtualizer.ts';
import { InsideGrid } from './grid-context.ts';

export interface Column<T> {
  id: string;
  header: string;
  /** CSS grid track, e.g. "2fr" or "8rem" */
  width: string;
  render: (row: T) => ReactNode;
  sortable?: boolean;
  /**
   * the cell's text, when the column should widen to its longest value (site names) rather than cut it; also the cell's
   * tooltip
   */
  fitText?: (row: T) => string;
}

export type SelectMode = 'only' | 'toggle' | 'range';

export interface GridSort {
  column: string;
  direction: 'asc' | 'desc';
}

export interface VirtualGridProps<T> {
  /** accessible name of the list, e.g. "Users" */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: readonly Column<T>[];
  sort?: GridSort;
  onSort?: (column: string) => void;
  /** present when rows can be selected */
  selected?: ReadonlySet<string | number>;
  /** what `selected` holds for a row when it is not the row's key (a holder's row selects the person) */
  selectionKey?: (row: T) => string | number;
  /** `fromIndex`: the row the keyboard was on when a range was extended */
  onSelect?: (index: number, mode: SelectMode, fromIndex?: number) => void;
  onSelectAll?: () => void;
  /** what a row's checkbox selects, e.g. "Costa, Priya" (default: "row N") */
  rowLabel?: (row: T) => string;
  /** Enter or double-click on a row */
  onActivate?: (row: T, index: number) => void;
  emptyText?: string;
  /** rows are still being read: say so instead of "nothing to show" */
  loading?: boolean;
  /** the rows shown are about to be replaced by a fresh read (aria-busy) */
  busy?: boolean;
  rowHeight?: number;
  /** the user scrolled near the last row: a paged list reads its next page */
  onEndReached?: () => void;
  /**
   * "tall" fills the view; "short" for lists inside a detail panel (10 rows at least); "compact" for a picker list
   * above one
   */
  size?: 'tall' | 'short' | 'compact';
}

const PAGE = 10;

/**
 * A column's track, never narrower than its header (a fixed "6.5rem" would cut "≤ 30 days" in a
 * larger font or another language): fixed widths become `max(width, header)`; flexible ones
 * (`minmax(…)`, `fr`) get the header as their minimum.
 */
/**
 * A width of n characters in em, not ch: ch follows the font of the element the template is set
 * on, and the bold header row would get wider columns than the rows under it.
 */
function chars(n: number): string {
  return `${Math.round(n * 6.2) / 10}em`;
}

export function columnTrack(width: string, header: string, longestText = 0): string {
  // the longest value, up to a limit (one very long name must not squeeze every other column,
  // nor, in a 1024-pixel window, push the last columns out of it)
  const headerWidth =
    longestText > header.length ? `min(${chars(longestText + 2)}, 22rem, 18vw)` : chars(header.length + 3);
  if (/^[\d.]+(rem|px|ch|em)$/.test(width)) return `max(${width}, ${headerWidth})`;
  const minmax = /^minmax\(([^,]+),\s*(.+)\)$/.exec(width);
  if (minmax) return `minmax(max(${minmax[1]}, ${headerWidth}), ${minmax[2]})`;
  if (/^[\d.]+fr$/.test(width)) return `minmax(${headerWidth}, ${width})`;
  return width;
}

/** The row a navigation key moves to, or null for any other key. */
function moveTarget(key: string, active: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return active + 1;
    case 'ArrowUp':
      return active - 1;
    case 'PageDown':
      return active + PAGE;
    case 'PageUp':
      return active - PAGE;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

function GridHead<T>({
  columns,
  template,
  sort,
  onSort,
  selectable,
}: {
  columns: readonly Column<T>[];
  template: string;
  sort: GridSort | undefined;
  onSort: ((column: string) => void) | undefined;
  selectable: boolean;
}) {
  return (
    <div className="vgrid-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
      {selectable && (
        <div role="columnheader" className="vgrid-check">
          <span className="visually-hidden">Selected</span>
        </div>
      )}
      {columns.map((c) => {
        const sorted = sort?.column === c.id ? sort.direction : undefined;
        return (
          <div
            key={c.id}
            role="columnheader"
            aria-sort={
              sorted === 'asc'
                ? 'ascending'
                : sorted === 'desc'
                  ? 'descending'
                  : c.sortable
                    ? 'none'
                    : undefined
            }
          >
            {c.sortable && onSort ? (
              <button type="button" className="sort" onClick={() => onSort?.(c.id)}>
                {c.header}
                <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
              </button>
            ) : (
              c.header
            )}
          </div>
        );
      })}
    </div>
  );
}

interface GridRowProps<T> {
  id: string;
  index: number;
  row: T;
  columns: readonly Column<T>[];
  style: CSSProperties;
  active: boolean;
  /** undefined when rows cannot be selected */
  selected: boolean | undefined;
  label: string;
  onClick: (e: MouseEvent) => void;
  /** a click on the row's checkbox */
  onCheck: (e: MouseEvent) => void;
  onDoubleClick: () => void;
}

/**
 * A shift-click extends the row selection: the browser must not start a text selection (nor move focus off the grid).
 */
function keepTextUnselected(e: MouseEvent) {
  if (!e.shiftKey) return;
  e.preventDefault();
  (e.currentTarget.closest('[role="grid"]') as HTMLElement | null)?.focus({ preventScroll: true });
}

function GridRow<T>({
  id,
  index,
  row,
  columns,
  style,
  active,
  selected,
  label,
  onClick,
  onCheck,
  onDoubleClick,
}: GridRowProps<T>) {
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`vgrid-row${active ? ' active' : ''}${selected ? ' selected' : ''}`}
      style={style}
      onMouseDown={keepTextUnselected}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
    >
      {selected !== undefined && (
        <div role="gridcell" className="vgrid-check">
          {/* out of the tab order (the grid is one stop); a click on it adds or removes the row, as Ctrl-click does */}
          <input
            type="checkbox"
            tabIndex={-1}
            checked={selected}
            readOnly
            aria-label={`Select ${label}`}
            onMouseDown={(e) => {
              e.preventDefault();
              (e.currentTarget.closest('[role="grid"]') as HTMLElement | null)?.focus({
                preventScroll: true,
              });
            }}
            onClick={(e) => {
              e.preventDefault();
              e.stopPropagation();
              onCheck(e);
            }}
          />
        </div>
      )}
      {columns.map((c) => (
        // a column fitted to its text may still cut its longest values (a narrow window): the whole text shows on hover
        <div key={c.id} role="gridcell" title={c.fitText?.(row) || undefined}>
          {c.render(row)}
        </div>
      ))}
    </div>
  );
}

interface GridKeyContext<T> {
  props: VirtualGridProps<T>;
  activeIndex: number;
  selectable: boolean;
  moveTo: (index: number, extend: boolean) => void;
}

/**
 * Arrows, Page Up/Down, Home/End move; Space selects; Enter opens; Ctrl+A selects all; Delete undoes the row's pending
 * change.
 */
function onGridKey<T>(
  e: KeyboardEvent<HTMLDivElement>,
  { props, activeIndex, selectable, moveTo }: GridKeyContext<T>,
) {
  // keys pressed on a control inside the grid (a sort button) are that control's
  if (e.target !== e.currentTarget) return;
  const target = moveTarget(e.key, activeIndex, props.rows.length);
  if (target !== null) {
    moveTo(target, e.shiftKey && selectable);
    e.preventDefault();
    return;
  }
  switch (e.key) {
    case 'Delete': {
      // the row's pending-change Undo (a button out of the tab order: the grid is one tab stop)
      const undo = e.currentTarget.querySelector<HTMLButtonElement>(
        `[aria-rowindex="${activeIndex + 2}"] .pending-marker button`,
      );
      if (!undo) return;
      undo.click();
      break;
    }
    case ' ':
      if (!selectable || props.rows.length === 0) return;
      props.onSelect?.(activeIndex, 'toggle');
      break;
    case 'Enter': {
      const row = props.rows[activeIndex];
      if (!row || !props.onActivate) return;
      props.onActivate(row, activeIndex);
      break;
    }
    case 'a':
      if (!(e.ctrlKey || e.metaKey) || !props.onSelectAll) return;
      props.onSelectAll();
      break;
    default:
      return;
  }
  e.preventDefault();
}

/** The longest text of a column that fits its content (its first 2,000 rows: enough to see every site name). */
function longestText<T>(rows: readonly T[], column: Column<T>): number {
  if (!column.fitText) return 0;
  let longest = 0;
  for (const row of rows.slice(0, 2000)) longest = Math.max(longest, column.fitText(row).length);
  return longest;
}

type RowVirtualizer = ReturnType<typeof useRowVirtualizer<HTMLDivElement, Element>>;

/** The active row (the keyboard's and the screen reader's), moving it, and what a click on a row or its box does. */
function useActiveRow<T>(props: VirtualGridProps<T>, virtualizer: RowVirtualizer, selectable: boolean) {
  'use no memo';
  const { rows } = props;
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(rows.length - 1, 0));
  function moveTo(index: number, extend: boolean) {
    if (rows.length === 0) return;
    const next = Math.max(0, Math.min(rows.length - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (extend) props.onSelect?.(next, 'range', activeIndex);
  }
  function onRowClick(e: MouseEvent, index: number) {
    setActive(index);
    if (!selectable) return;
    props.onSelect?.(index, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'only', activeIndex);
  }
  function onCheckClick(e: MouseEvent, index: number) {
    setActive(index);
    props.onSelect?.(index, e.shiftKey ? 'range' : 'toggle', activeIndex);
  }
  return { activeIndex, moveTo, onRowClick, onCheckClick };
}

export function VirtualGrid<T>(props: VirtualGridProps<T>) {
  // the virtualiser returns fresh functions each render: keep this component out of automatic memoisation
  'use no memo';
  const { rows, columns, rowHeight = 36 } = props;
  const id = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const selectable = props.selected !== undefined;
  const template = (selectable ? ['2.25rem'] : [])
    .concat(columns.map((c) => columnTrack(c.width, c.header, longestText(rows, c))))
    .join(' ');
  const lastShown = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  const { onEndReached } = props;
  useEffect(() => {
    if (onEndReached && rows.length > 0 && lastShown >= rows.length - 20) onEndReached();
  }, [onEndReached, lastShown, rows.length]);
  const activeRow = useActiveRow(props, virtualizer, selectable);
  const { activeIndex, moveTo } = activeRow;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) =>
    onGridKey(e, { props, activeIndex, selectable, moveTo });
  const body = { id, template, selectable, virtualizer, ...activeRow };
  return (
    <div
      className={`vgrid vgrid-${props.size ?? 'tall'}`}
      role="grid"
      aria-label={props.label}
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length + (selectable ? 1 : 0)}
      aria-multiselectable={selectable || undefined}
      aria-busy={props.busy || undefined}
      aria-activedescendant={rows[activeIndex] ? `${id}-r${activeIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <GridHead
        columns={columns}
        template={template}
        sort={props.sort}
        onSort={props.onSort}
        selectable={selectable}
      />
      {/* not a tab stop of its own (Chromium makes scrollers focusable): the grid is the one stop, arrows scroll it */}
      <div className="vgrid-body" ref={scrollRef} role="rowgroup" tabIndex={-1}>
        {rows.length === 0 ? (
          <p className="empty">{props.loading ? 'Loading…' : (props.emptyText ?? 'Nothing to show.')}</p>
        ) : (
          <GridRows grid={props} {...body} />
        )}
      </div>
    </div>
  );
}

/** The rows in view, placed on a canvas as tall as all of them. */
function GridRows<T>({
  grid: props,
  id,
  template,
  selectable,
  virtualizer,
  activeIndex,
  onRowClick,
  onCheckClick,
}: {
  grid: VirtualGridProps<T>;
  id: string;
  template: string;
  selectable: boolean;
  virtualizer: RowVirtualizer;
  activeIndex: number;
  onRowClick: (e: MouseEvent, index: number) => void;
  onCheckClick: (e: MouseEvent, index: number) => void;
}) {
  'use no memo';
  const { rows, columns, rowHeight = 36 } = props;
  const selectedOf = (row: T, key: string | number) =>
    selectable ? (props.selected?.has(props.selectionKey?.(row) ?? key) ?? false) : undefined;
  return (
    <InsideGrid.Provider value={true}>
      <div className="vgrid-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const key = props.rowKey(row);
          return (
            <GridRow
              key={key}
              id={`${id}-r${item.index}`}
              index={item.index}
              row={row}
              columns={columns}
              style={{
                gridTemplateColumns: template,
                height: rowHeight,
                transform: `translateY(${item.start}px)`,
              }}
              active={item.index === activeIndex}
              selected={selectedOf(row, key)}
              label={props.rowLabel?.(row) ?? `row ${item.index + 1}`}
              onClick={(e) => onRowClick(e, item.index)}
              onCheck={(e) => onCheckClick(e, item.index)}
              onDoubleClick={() => props.onActivate?.(row, item.index)}
            />
          );
        })}
      </div>
    </InsideGrid.Provider>
  );
}
