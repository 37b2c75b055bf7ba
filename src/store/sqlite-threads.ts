import { ThreadError } from "../errors.js";
import { withoutFsync, type Database, type Statement } from "./db.js";
import { acquireSqliteLease, sqliteLeaseIsLive } from "./lease.js";
import {
  duplicateThreadMessage,
  INSERT_COLUMNS,
  insertValues,
  PATCH_COLUMNS,
  toThreadRow,
  type Lease,
  type NewThread,
  type RawThreadRow,
  type ThreadFilter,
  type ThreadPatch,
  type ThreadRow,
  type ThreadStore,
  type UpdateOptions,
} from "./thread-store.js";

/** Columns added after the table's first version; databases created before them get them on open. */
const ADDED_COLUMNS = ["start_commit", "branch", "host", "user_name", "repo", "artifacts", "mode", "unsettled_usage", "parent_thread", "parent_step"] as const;

/** The thread index and leases in the project's SQLite file, next to LangGraph's checkpoints. */
export class SqliteThreadStore implements ThreadStore {
  private readonly db: Database;
  /** Prepared UPDATEs by their text: a run writes the same few progress notes every step. */
  private readonly updates = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS yolo_threads (
      id TEXT PRIMARY KEY,
      requirement TEXT NOT NULL,
      status TEXT NOT NULL,
      current_node TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      root TEXT NOT NULL,
      model TEXT NOT NULL,
      exit_code INTEGER,
      reason TEXT,
      ${ADDED_COLUMNS.map((column) => `${column} TEXT`).join(",\n      ")}
    )`);
    const missing = () => {
      const present = new Set((db.prepare("PRAGMA table_info(yolo_threads)").all() as { name: string }[]).map((c) => c.name));
      return ADDED_COLUMNS.filter((column) => !present.has(column));
    };
    if (missing().length === 0) return;
    // An older file: another process opening it now adds the same columns, so they are read again under the write lock.
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const column of missing()) db.exec(`ALTER TABLE yolo_threads ADD COLUMN ${column} TEXT`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  async acquireLease(threadId: string, ttlMs?: number): Promise<Lease> {
    return acquireSqliteLease(this.db, threadId, ttlMs);
  }

  async isLive(threadId: string): Promise<boolean> {
    return sqliteLeaseIsLive(this.db, threadId);
  }

  async create(input: NewThread, options: UpdateOptions = {}): Promise<ThreadRow> {
    const now = new Date().toISOString();
    const insert = () =>
      this.db
        .prepare(`INSERT INTO yolo_threads (${INSERT_COLUMNS.join(", ")}) VALUES (${INSERT_COLUMNS.map(() => "?").join(", ")})`)
        .run(...insertValues(input, now));
    try {
      if (options.progress) withoutFsync(this.db, insert);
      else insert();
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw new ThreadError(duplicateThreadMessage(input.id));
      throw error;
    }
    return (await this.get(input.id)) as ThreadRow;
  }

  async update(id: string, patch: ThreadPatch, options: UpdateOptions = {}): Promise<boolean> {
    const sets: string[] = ["updated_at = ?"];
    const values: unknown[] = [new Date().toISOString()];
    for (const key of Object.keys(PATCH_COLUMNS) as (keyof ThreadPatch)[]) {
      if (patch[key] === undefined) continue;
      sets.push(`${PATCH_COLUMNS[key]} = ?`);
      values.push(patch[key]);
    }
    const write = () => this.statement(`UPDATE yolo_threads SET ${sets.join(", ")} WHERE id = ?`).run(...values, id).changes > 0;
    return options.progress ? withoutFsync(this.db, write) : write();
  }

  // The prepared statement for `sql`, kept: only the UPDATEs (a handful of column sets) go through here.
  private statement(sql: string): Statement {
    let statement = this.updates.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updates.set(sql, statement);
    }
    return statement;
  }

  async remove(id: string): Promise<boolean> {
    return this.db.prepare("DELETE FROM yolo_threads WHERE id = ?").run(id).changes > 0;
  }

  async get(id: string): Promise<ThreadRow | null> {
    const raw = this.db.prepare("SELECT * FROM yolo_threads WHERE id = ?").get(id) as RawThreadRow | undefined;
    return raw ? toThreadRow(raw) : null;
  }

  async list(filter: ThreadFilter): Promise<ThreadRow[]> {
    // Rows from before the repo column belong to whoever reads this project's own file.
    const [where, params] = "all" in filter ? ["", []] : ["WHERE repo = ? OR root = ? OR repo IS NULL", [filter.repo, filter.root]];
    const rows = this.db.prepare(`SELECT * FROM yolo_threads ${where} ORDER BY created_at DESC, rowid DESC`).all(...params) as RawThreadRow[];
    return rows.map(toThreadRow);
  }
}
