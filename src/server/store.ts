/**
 * The server's SQLite store: one DatabaseSync (a file or `:memory:`), prepared
 * statements cached by their SQL, one transaction per write, and list paging
 * that seeks by key instead of scanning an OFFSET when it can.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SCHEMA_SQL, DATA_TABLES } from './schema.ts';

export type SqlValue = SQLInputValue;

/** A list query: `SELECT select FROM from WHERE where... ORDER BY order`. */
export interface ListQuery {
  select: string;
  from: string;
  where: string[];
  params: SqlValue[];
  /** an integer column that orders the list and is unique in it: enables keyset paging */
  key?: string;
  /** ORDER BY when there is no single key (composite ids) */
  order?: string;
}

export interface PageRequest {
  startrow: number;
  limit: number;
}

const MAX_LISTS = 200;
const MAX_CURSORS_PER_LIST = 5_000;

export class Store {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /**
   * Where pages of a list start, learnt from the pages before them:
   * list signature -> (startrow -> key of the last record before that row).
   * Any write clears them, so a cursor never outlives the data it was read from.
   */
  private readonly cursors = new Map<string, Map<number, number>>();

  constructor(path: string) {
    this.db = new DatabaseSync(path);
    this.db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -65536;',
    );
    // Case-insensitive text equality beyond ASCII (SQLite's lower() is ASCII-only).
    this.db.function('fold', { deterministic: true }, (value) =>
      typeof value === 'string' ? value.toLocaleLowerCase('en-US') : value,
    );
    this.createTables();
  }

  private createTables(): void {
    this.db.exec(tablesSql());
    this.db.exec(indexesSql());
  }

  /** Drops every table and recreates them without indexes (fast bulk load); call `finishLoad` after. */
  resetForLoad(): void {
    for (const table of DATA_TABLES) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    this.statements.clear();
    this.cursors.clear();
    this.db.exec(tablesSql());
  }

  finishLoad(): void {
    this.db.exec(indexesSql());
    this.db.exec('ANALYZE');
    this.statements.clear();
  }

  statement(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  all<T>(sql: string, ...params: SqlValue[]): T[] {
    return this.statement(sql).all(...params) as unknown as T[];
  }

  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.statement(sql).get(...params) as unknown as T | undefined;
  }

  run(sql: string, ...params: SqlValue[]): { changes: number; lastId: number } {
    const r = this.statement(sql).run(...params);
    return { changes: Number(r.changes), lastId: Number(r.lastInsertRowid) };
  }

  /** Runs `fn` in one transaction: all of it commits, or none of it. */
  tx<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      this.cursors.clear();
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  getMeta(key: string): string | undefined {
    return this.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.run(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      key,
      value,
    );
  }

  /** One page of a list, in key order; `startrow` is 1-based. */
  page<T>(q: ListQuery, page: PageRequest): T[] {
    const where = q.where.length ? ` WHERE ${q.where.join(' AND ')}` : '';
    const base = `SELECT ${q.select} FROM ${q.from}`;
    if (!q.key) {
      const sql = `${base}${where} ORDER BY ${q.order ?? '1'} LIMIT ? OFFSET ?`;
      return this.all<T>(sql, ...q.params, page.limit, page.startrow - 1);
    }
    // Seek from the nearest known row at or before startrow, then skip the few rows between.
    const signature = `${base}${where}|${JSON.stringify(q.params)}`;
    const known = this.cursors.get(signature);
    let fromRow = 1;
    let afterKey: number | undefined;
    if (known) {
      for (const [row, key] of known) {
        if (row <= page.startrow && row > fromRow) {
          fromRow = row;
          afterKey = key;
        }
      }
    }
    const seek = afterKey === undefined ? q.where : [...q.where, `${q.key} > ?`];
    const seekWhere = seek.length ? ` WHERE ${seek.join(' AND ')}` : '';
    const params = afterKey === undefined ? q.params : [...q.params, afterKey];
    const rows = this.all<T>(
      `${base}${seekWhere} ORDER BY ${q.key} LIMIT ? OFFSET ?`,
      ...params,
      page.limit,
      page.startrow - fromRow,
    );
    if (rows.length === page.limit)
      this.remember(signature, page.startrow + rows.length, rows[rows.length - 1], q.key);
    return rows;
  }

  private remember(signature: string, row: number, lastRow: unknown, key: string): void {
    const keyName = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
    const last = (lastRow as Record<string, unknown>)[keyName];
    if (typeof last !== 'number') return;
    let known = this.cursors.get(signature);
    if (!known) {
      if (this.cursors.size >= MAX_LISTS) this.cursors.clear();
      this.cursors.set(signature, (known = new Map()));
    }
    if (known.size >= MAX_CURSORS_PER_LIST) known.clear();
    known.set(row, last);
  }

  close(): void {
    this.db.close();
  }
}

function tablesSql(): string {
  return (
    SCHEMA_SQL.split(';')
      .filter((s) => /CREATE TABLE/.test(s))
      .join(';') + ';'
  );
}

function indexesSql(): string {
  return (
    SCHEMA_SQL.split(';')
      .filter((s) => /CREATE (UNIQUE )?INDEX/.test(s))
      .join(';') + ';'
  );
}
