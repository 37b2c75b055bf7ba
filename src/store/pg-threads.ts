import type { Pool } from "pg";
import { ThreadError } from "../errors.js";
import { acquirePostgresLease, PG_LEASES_TABLE, postgresLeaseIsLive } from "./pg-lease.js";
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
} from "./thread-store.js";

/** yolo's tables in PostgreSQL; times are ISO strings as in SQLite, `seq` orders rows created in the same millisecond. */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS yolo_threads (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL,
    requirement TEXT NOT NULL,
    status TEXT NOT NULL,
    current_node TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    root TEXT NOT NULL,
    model TEXT NOT NULL,
    exit_code INTEGER,
    reason TEXT,
    start_commit TEXT,
    branch TEXT,
    host TEXT,
    user_name TEXT,
    repo TEXT,
    artifacts TEXT,
    mode TEXT NOT NULL DEFAULT 'run'
  )`,
  // Columns added after the table's first version.
  "ALTER TABLE yolo_threads ADD COLUMN IF NOT EXISTS unsettled_usage TEXT",
  "ALTER TABLE yolo_threads ADD COLUMN IF NOT EXISTS parent_thread TEXT",
  "ALTER TABLE yolo_threads ADD COLUMN IF NOT EXISTS parent_step TEXT",
  "CREATE INDEX IF NOT EXISTS yolo_threads_repo ON yolo_threads (repo)",
  PG_LEASES_TABLE,
];

/** Creates yolo's tables when missing (run under the setup lock, with LangGraph's own setup). */
export async function setupPostgresThreadTables(pool: Pool): Promise<void> {
  for (const sql of TABLES) await pool.query(sql);
}

/** The thread index and leases in a shared PostgreSQL database: every repository and machine of a team. */
export class PostgresThreadStore implements ThreadStore {
  private readonly pool: Pool;

  constructor(pool: Pool) {
    this.pool = pool;
  }

  acquireLease(threadId: string, ttlMs?: number): Promise<Lease> {
    return acquirePostgresLease(this.pool, threadId, ttlMs);
  }

  isLive(threadId: string): Promise<boolean> {
    return postgresLeaseIsLive(this.pool, threadId);
  }

  async create(input: NewThread): Promise<ThreadRow> {
    const now = new Date().toISOString();
    try {
      await this.pool.query(
        `INSERT INTO yolo_threads (${INSERT_COLUMNS.join(", ")}) VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`,
        insertValues(input, now),
      );
    } catch (error) {
      if ((error as { code?: string }).code === "23505") throw new ThreadError(duplicateThreadMessage(input.id));
      throw error;
    }
    return (await this.get(input.id)) as ThreadRow;
  }

  async update(id: string, patch: ThreadPatch): Promise<boolean> {
    const sets: string[] = ["updated_at = $1"];
    const values: unknown[] = [new Date().toISOString()];
    for (const key of Object.keys(PATCH_COLUMNS) as (keyof ThreadPatch)[]) {
      if (patch[key] === undefined) continue;
      values.push(patch[key]);
      sets.push(`${PATCH_COLUMNS[key]} = $${values.length}`);
    }
    values.push(id);
    const result = await this.pool.query(`UPDATE yolo_threads SET ${sets.join(", ")} WHERE id = $${values.length}`, values);
    return (result.rowCount ?? 0) > 0;
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.pool.query("DELETE FROM yolo_threads WHERE id = $1", [id]);
    return (result.rowCount ?? 0) > 0;
  }

  async get(id: string): Promise<ThreadRow | null> {
    const { rows } = await this.pool.query<RawThreadRow>("SELECT * FROM yolo_threads WHERE id = $1", [id]);
    return rows[0] ? toThreadRow(rows[0]) : null;
  }

  async list(filter: ThreadFilter): Promise<ThreadRow[]> {
    const [where, params] = "all" in filter ? ["", []] : ["WHERE repo = $1 OR (repo IS NULL AND root = $2)", [filter.repo, filter.root]];
    const { rows } = await this.pool.query<RawThreadRow>(`SELECT * FROM yolo_threads ${where} ORDER BY created_at DESC, seq DESC`, params);
    return rows.map(toThreadRow);
  }
}
