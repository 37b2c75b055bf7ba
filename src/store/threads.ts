import { ThreadError } from "../errors.js";
import type { Database } from "./db.js";
import { acquireLease, type Lease } from "./lease.js";

/** How a thread stands: running, waiting, passed, failed, limit, provider_error, interrupted, error. */
export type ThreadStatus = string;

/** One row of yolo's thread index (LangGraph's own tables hold the state; this is for listing). */
export interface ThreadRow {
  id: string;
  requirement: string;
  status: ThreadStatus;
  currentNode: string | null;
  createdAt: string;
  updatedAt: string;
  root: string;
  model: string;
  exitCode: number | null;
  reason: string | null;
  /** HEAD when the thread started (null outside git or before the first commit): reports diff against it. */
  startCommit: string | null;
  /** The branch the thread commits to (`--branch`), or null. */
  branch: string | null;
  /** `run` (a workflow), `agent` or `chat`. */
  mode: string;
}

export interface ThreadPatch {
  status?: ThreadStatus;
  currentNode?: string | null;
  exitCode?: number | null;
  reason?: string | null;
}

interface RawRow {
  id: string;
  requirement: string;
  status: string;
  current_node: string | null;
  created_at: string;
  updated_at: string;
  root: string;
  model: string;
  exit_code: number | null;
  reason: string | null;
  start_commit: string | null;
  branch: string | null;
  mode: string | null;
}

/** Columns added after the table's first version; databases created before them get them on open. */
const ADDED_COLUMNS = ["start_commit", "branch", "mode"] as const;

const COLUMNS: Record<keyof ThreadPatch, string> = {
  status: "status",
  currentNode: "current_node",
  exitCode: "exit_code",
  reason: "reason",
};

/** yolo's index of threads, in its own table next to LangGraph's checkpoints. */
export class ThreadIndex {
  private readonly db: Database;

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
      reason TEXT
    )`);
    const present = new Set((db.prepare("PRAGMA table_info(yolo_threads)").all() as { name: string }[]).map((c) => c.name));
    for (const column of ADDED_COLUMNS) if (!present.has(column)) db.exec(`ALTER TABLE yolo_threads ADD COLUMN ${column} TEXT`);
  }

  /** Takes the per-thread lease for a run (see acquireLease); a ThreadError when another live process holds it. */
  acquireLease(threadId: string, ttlMs?: number): Lease {
    return acquireLease(this.db, threadId, ttlMs);
  }

  /** Records a new thread as running. An id already in the index is a ThreadError. */
  create(input: {
    id: string;
    requirement: string;
    model: string;
    root: string;
    status?: ThreadStatus;
    startCommit?: string | null;
    branch?: string | null;
    mode?: string;
  }): ThreadRow {
    const now = new Date().toISOString();
    try {
      this.db
        .prepare(
          `INSERT INTO yolo_threads (id, requirement, status, current_node, created_at, updated_at, root, model, exit_code, reason, start_commit, branch, mode)
           VALUES (?, ?, ?, NULL, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)`,
        )
        .run(input.id, input.requirement, input.status ?? "running", now, now, input.root, input.model, input.startCommit ?? null, input.branch ?? null, input.mode ?? "run");
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
        throw new ThreadError(`Thread ${input.id} already exists; start a new run to get a new thread id.`);
      }
      throw error;
    }
    return this.get(input.id) as ThreadRow;
  }

  /** Changes the given fields and bumps `updatedAt`. Returns false when the thread is not in the index. */
  update(id: string, patch: ThreadPatch): boolean {
    const sets: string[] = ["updated_at = ?"];
    const values: unknown[] = [new Date().toISOString()];
    for (const key of Object.keys(COLUMNS) as (keyof ThreadPatch)[]) {
      if (patch[key] === undefined) continue;
      sets.push(`${COLUMNS[key]} = ?`);
      values.push(patch[key]);
    }
    const result = this.db.prepare(`UPDATE yolo_threads SET ${sets.join(", ")} WHERE id = ?`).run(...values, id);
    return result.changes > 0;
  }

  get(id: string): ThreadRow | null {
    const raw = this.db.prepare("SELECT * FROM yolo_threads WHERE id = ?").get(id) as RawRow | undefined;
    return raw ? toRow(raw) : null;
  }

  /** All threads, newest first. */
  list(): ThreadRow[] {
    const rows = this.db.prepare("SELECT * FROM yolo_threads ORDER BY created_at DESC, rowid DESC").all() as RawRow[];
    return rows.map(toRow);
  }
}

function toRow(raw: RawRow): ThreadRow {
  return {
    id: raw.id,
    requirement: raw.requirement,
    status: raw.status,
    currentNode: raw.current_node,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    root: raw.root,
    model: raw.model,
    exitCode: raw.exit_code,
    reason: raw.reason,
    startCommit: raw.start_commit ?? null,
    branch: raw.branch ?? null,
    mode: raw.mode ?? "run",
  };
}
