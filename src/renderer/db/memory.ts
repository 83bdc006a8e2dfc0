/**
 * What one profile's database keeps in memory beside IndexedDB: the copies its
 * queries share (table-memo.ts), the writes the sync did not make (the page
 * fingerprints' guard), the first screen's generation. The middlewares and their
 * readers take their part from here, through the Dexie instance they are attached
 * to, never from a module variable keyed by the database's name.
 *
 * One per profile session, shared by its two instances of the database (the views'
 * and the outbox's strict one: a write through either drops what the other would
 * read), and disposed with the session, so nothing of a profile outlives it.
 */
import Dexie, { type ObservabilitySet } from 'dexie';

/** A part of the memory: made on first use, one per database memory. */
export interface MemoryPart<T> {
  readonly make: (memory: DatabaseMemory) => T;
}

export class DatabaseMemory {
  readonly #parts = new Map<MemoryPart<unknown>, unknown>();
  readonly #tableListeners = new Set<(table: string) => void>();
  #watching: ((parts: ObservabilitySet) => void) | null = null;
  #disposed = false;

  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** The part, made now if this memory has none yet. */
  part<T>(kind: MemoryPart<T>): T {
    if (this.#parts.has(kind)) return this.#parts.get(kind) as T;
    const made = kind.make(this);
    this.#parts.set(kind, made);
    return made;
  }

  /** The part if it was made, else undefined (a write need not make what nobody has read). */
  peek<T>(kind: MemoryPart<T>): T | undefined {
    return this.#parts.get(kind) as T | undefined;
  }

  /**
   * `listener` hears the name of each table of this database written by any window (Dexie's `storagemutated`), until
   * the memory is disposed. Dexie's global event is subscribed to only while someone listens.
   */
  onTableWritten(listener: (table: string) => void): void {
    if (this.#disposed) return;
    this.#tableListeners.add(listener);
    if (this.#watching) return;
    const prefix = `idb://${this.name}/`;
    this.#watching = (parts) => {
      const tables = new Set<string>();
      for (const part of Object.keys(parts))
        if (part.startsWith(prefix)) tables.add(part.slice(prefix.length).split('/')[0] ?? '');
      for (const table of tables) for (const l of this.#tableListeners) l(table);
    };
    Dexie.on.storagemutated.subscribe(this.#watching);
  }

  /** True once the profile's session has ended. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Forgets every part and stops listening (the profile's session has ended). */
  dispose(): void {
    this.#disposed = true;
    if (this.#watching) Dexie.on.storagemutated.unsubscribe(this.#watching);
    this.#watching = null;
    this.#tableListeners.clear();
    this.#parts.clear();
  }
}
