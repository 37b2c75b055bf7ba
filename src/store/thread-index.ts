import type { ResolvedConfig } from "../config/schema.js";
import type { CheckpointRows } from "./checkpoint-rows.js";
import type { Database, Statement } from "./db.js";
import type { Storage } from "./open-storage.js";
import type { ThreadStore } from "./thread-store.js";

/**
 * yolo's thread index and whether a thread has a checkpoint, without LangGraph: what `yolo threads` needs. On
 * SQLite it reads the checkpoint table directly, so listing threads loads neither LangGraph nor @langchain/core.
 */
export interface ThreadIndex {
  threads: ThreadStore;
  /** Whether LangGraph saved any checkpoint of the thread (in the root namespace, as `getTuple` reads it). */
  hasCheckpoint(threadId: string): Promise<boolean>;
  /** The id of the thread's latest checkpoint (root namespace), or null: what changes with each step a run saves. */
  latestCheckpointId(threadId: string): Promise<string | null>;
  /** The channel values of the thread's latest checkpoint (root namespace), or {} without one. */
  latestValues(threadId: string): Promise<Record<string, unknown>>;
  /**
   * SQLite: what a thread's state reading rests on, in one indexed query: its latest checkpoint's id and the writes
   * saved against it (a reply saved without a run adds one). Equal versions read the same state.
   */
  stateVersion?(threadId: string): string;
  /** SQLite: changes whenever any connection (this one or another process's) commits to the file. */
  dataVersion?(): string;
  /** SQLite: a thread's checkpoint rows, read without LangGraph (src/store/checkpoint-view.ts decodes them). */
  checkpointRows?(threadId: string): CheckpointRows;
  /** PostgreSQL: the whole storage the index opened, so a reader can ask LangGraph's checkpointer without reconnecting. */
  storage?: Storage;
  close(): Promise<void>;
}

/** Opens the configured database's thread index; PostgreSQL opens the whole storage and asks its checkpointer. */
export async function openThreadIndex(database: ResolvedConfig["database"]): Promise<ThreadIndex> {
  if (database.kind === "sqlite") {
    const [{ openDatabase, closeDatabase }, { SqliteThreadStore }, { CheckpointRows }] = await Promise.all([
      import("./db.js"),
      import("./sqlite-threads.js"),
      import("./checkpoint-rows.js"),
    ]);
    const db = openDatabase(database.path);
    return {
      threads: new SqliteThreadStore(db),
      hasCheckpoint: async (id) => sqliteHasCheckpoint(db, id),
      latestCheckpointId: async (id) => sqliteLatestId(db, id),
      latestValues: async (id) => sqliteLatestValues(db, id),
      stateVersion: sqliteStateVersion(db),
      dataVersion: sqliteDataVersion(db),
      checkpointRows: (id) => new CheckpointRows(db, id),
      close: async () => void closeDatabase(db),
    };
  }
  const storage = await (await import("./open-storage.js")).openStorage(database);
  return {
    threads: storage.threads,
    storage,
    hasCheckpoint: async (id) => (await storage.checkpointer.getTuple({ configurable: { thread_id: id } })) !== undefined,
    latestCheckpointId: async (id) => (await storage.checkpointer.getTuple({ configurable: { thread_id: id } }))?.checkpoint.id ?? null,
    latestValues: async (id) => (await storage.checkpointer.getTuple({ configurable: { thread_id: id } }))?.checkpoint.channel_values ?? {},
    close: () => storage.close(),
  };
}

// SqliteSaver's table (created on its first use, so a database only ever listed may not have it yet).
function sqliteHasCheckpoint(db: Database, threadId: string): boolean {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get()) return false;
  return db.prepare("SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' LIMIT 1").get(threadId) !== undefined;
}

// The latest checkpoint's id alone (the primary key's order, as SqliteSaver's getTuple picks the latest): no blob read.
function sqliteLatestId(db: Database, threadId: string): string | null {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get()) return null;
  const row = db.prepare("SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1").get(threadId);
  return (row as { checkpoint_id: string } | undefined)?.checkpoint_id ?? null;
}

// The latest checkpoint's channel values as SqliteSaver wrote them (JsonPlusSerializer's "json" type is JSON text;
// the plain data read here needs none of its revivers). Anything else reads as no values.
function sqliteLatestValues(db: Database, threadId: string): Record<string, unknown> {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get()) return {};
  const row = db
    .prepare("SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1")
    .get(threadId) as { type: string; checkpoint: Uint8Array | string } | undefined;
  if (row?.type !== "json") return {};
  try {
    const text = typeof row.checkpoint === "string" ? row.checkpoint : Buffer.from(row.checkpoint).toString("utf8");
    const values = (JSON.parse(text) as { channel_values?: unknown }).channel_values;
    return values && typeof values === "object" ? (values as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// The latest checkpoint and its writes' count and largest rowid (a write replaced in place takes a new rowid): the
// statement prepared once, as a list asks it for each shown thread on every request.
function sqliteStateVersion(db: Database): (threadId: string) => string {
  let statement: Statement | undefined;
  return (threadId) => {
    if (!statement) {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('checkpoints', 'writes')").get() as { n: number };
      // Before LangGraph's first use of the file there is nothing to read: no statement is kept, the next call looks again.
      if (tables.n < 2) return "";
      statement = db.prepare(
        `SELECT c.checkpoint_id AS id, (SELECT count(*) || '.' || ifnull(max(w.rowid), '') FROM writes w
           WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = '' AND w.checkpoint_id = c.checkpoint_id) AS writes
         FROM checkpoints c WHERE c.thread_id = ? AND c.checkpoint_ns = '' ORDER BY c.checkpoint_id DESC LIMIT 1`,
      );
    }
    const row = statement.get(threadId) as { id: string; writes: string } | undefined;
    return row ? `${row.id}|${row.writes}` : "";
  };
}

// SQLite's data_version moves when another connection commits; total_changes counts this connection's own writes.
function sqliteDataVersion(db: Database): () => string {
  const changes = db.prepare("SELECT total_changes() AS n");
  return () => `${String(db.pragma("data_version", { simple: true }))}.${(changes.get() as { n: number }).n}`;
}
