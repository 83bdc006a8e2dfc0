/**
 * What the page asked of IndexedDB, and when: an init script wraps the
 * request-making methods of IndexedDB's prototypes (open, get, getAll,
 * getAllKeys, count, openCursor, openKeyCursor, put, delete...) and notes each
 * request's store or index, its start and the time of its first answer (a
 * cursor: its last step too, and how many steps). Used by the scale benchmark's
 * views part to say where a cold start's time goes (`FIELDBOOK_SCALE_IDB=1`).
 * The app's own code is untouched: the wrappers call the original methods.
 */

export interface IdbRequestNote {
  /** "users.getAll", "users[sortName].openCursor", "open fieldbook-…" */
  what: string;
  /** performance.now() at the call, and at its first and last answer */
  at: number;
  firstAt?: number;
  lastAt?: number;
  /** cursor steps answered */
  steps: number;
}

/** The init script (a string the page runs before its own scripts). */
export const RECORD_IDB_REQUESTS = `(() => {
  const notes = (window.__idbNotes = []);
  const wrap = (proto, names, label) => {
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      proto[name] = function (...args) {
        const request = original.apply(this, args);
        const note = { what: label(this) + '.' + name, at: performance.now(), steps: 0 };
        notes.push(note);
        const done = () => {
          const now = performance.now();
          note.firstAt ??= now;
          note.lastAt = now;
          note.steps++;
        };
        request.addEventListener('success', done);
        request.addEventListener('error', done);
        return request;
      };
    }
  };
  const methods = ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor', 'put', 'add', 'delete', 'clear'];
  wrap(IDBObjectStore.prototype, methods, (s) => s.name);
  wrap(IDBIndex.prototype, methods, (i) => i.objectStore.name + '[' + i.name + ']');
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, ...rest) {
    const request = open.call(this, name, ...rest);
    const note = { what: 'open ' + name, at: performance.now(), steps: 0 };
    notes.push(note);
    request.addEventListener('success', () => { note.firstAt = note.lastAt = performance.now(); note.steps = 1; });
    return request;
  };
})();`;

/**
 * The notes, longest-waiting first: "users[sortName].openCursor: asked at 812 ms, answered 2,310 ms later (60 steps,
 * last at 3,140 ms)".
 */
export function describeIdbNotes(notes: readonly IdbRequestNote[], top = 12): string[] {
  const ms = (n: number) => Math.round(n).toLocaleString('en-US');
  const waited = (n: IdbRequestNote) => (n.firstAt ?? Infinity) - n.at;
  return [...notes]
    .sort((a, b) => waited(b) - waited(a))
    .slice(0, top)
    .map((n) => {
      const asked = ms(n.at);
      const answered = n.firstAt === undefined ? 'never answered' : `answered ${ms(waited(n))} ms later`;
      const steps = n.steps > 1 ? ` (${n.steps} steps, last at ${ms(n.lastAt ?? 0)} ms)` : '';
      return `${n.what}: asked at ${asked} ms, ${answered}${steps}`;
    });
}
