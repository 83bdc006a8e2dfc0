/**
 * The actions bar over the selected users. The bulk feature adds its actions
 * with `registerSelectionAction(...)`; this bar always shows the count and a
 * way to clear the selection.
 */
import { useSyncExternalStore, type ComponentType } from 'react';
import { useUserSelection } from './selection.ts';
import { plural } from '../../app/words.ts';

export interface SelectionActionProps {
  /** the selected users' ids */
  userIds: readonly number[];
  clearSelection: () => void;
}

const actions = new Map<string, ComponentType<SelectionActionProps>>();
const listeners = new Set<() => void>();
let version = 0;

export function registerSelectionAction(id: string, action: ComponentType<SelectionActionProps>): () => void {
  actions.set(id, action);
  version += 1;
  for (const l of listeners) l();
  return () => {
    actions.delete(id);
    version += 1;
    for (const l of listeners) l();
  };
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function SelectionActions() {
  const selected = useUserSelection((s) => s.selected);
  const clear = useUserSelection((s) => s.clear);
  useSyncExternalStore(subscribe, () => version);
  if (selected.size === 0) return null;
  const userIds = [...selected];
  return (
    <section className="selection-actions" aria-label="Selected users">
      <span role="status">
        {plural(selected.size, 'user')} selected
      </span>
      {[...actions.entries()].map(([id, Action]) => (
        <Action key={id} userIds={userIds} clearSelection={clear} />
      ))}
      <button type="button" onClick={clear}>
        Clear selection
      </button>
    </section>
  );
}
