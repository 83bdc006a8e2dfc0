/**
 * The stores that hold one profile's view state (the Users selection, search and
 * filters, the last import's results, the report's choices) are made with
 * `profileStore`: each is put back as it was made when its profile's session ends,
 * so nothing chosen in one profile is seen in the next. This module imports nothing
 * from the features, so any store can register here.
 */
/** A zustand store (vanilla or hook): what resetting it needs. */
interface ResettableStore<State> {
  getInitialState(): State;
  setState(state: State, replace: true): void;
}

const resets = new Set<() => void>();
const ends = new Set<() => void>();

/** Registers a store as one profile's: it returns to its initial state at every profile switch. */
export function profileStore<State, Store extends ResettableStore<State>>(store: Store): Store {
  resets.add(() => store.setState(store.getInitialState(), true));
  return store;
}

/** `end` runs as every profile's session ends: for what a feature holds for its profile outside a store. */
export function onProfileEnd(end: () => void): void {
  ends.add(end);
}

/** Puts every profile store back as it was made, and runs each `onProfileEnd` (the profile session, as it ends). */
export function resetProfileStores(): void {
  for (const reset of resets) reset();
  for (const end of ends) end();
}
