import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ResolvedConfig } from "../config/schema.js";
import { YoloError } from "../errors.js";
import type { CheckpointRows } from "./checkpoint-rows.js";
import type { ThreadStore } from "./thread-store.js";

/** An open database: LangGraph's checkpointer and yolo's thread index + leases, closed together. */
export interface Storage {
  checkpointer: BaseCheckpointSaver;
  threads: ThreadStore;
  close(): Promise<void>;
}

/**
 * Opens the configured database: the SQLite file (created and checked) or PostgreSQL (connected; LangGraph's
 * and yolo's tables set up on first use under an advisory lock). Each kind's modules are loaded only when used.
 */
export async function openStorage(database: ResolvedConfig["database"]): Promise<Storage> {
  if (database.kind === "sqlite") {
    const [{ openDatabase, closeDatabase }, { createCheckpointer }, { SqliteThreadStore }] = await Promise.all([
      import("./db.js"),
      import("./checkpointer.js"),
      import("./sqlite-threads.js"),
    ]);
    const db = openDatabase(database.path);
    return { checkpointer: createCheckpointer(db), threads: new SqliteThreadStore(db), close: async () => void closeDatabase(db) };
  }
  const [{ openPostgresPool, postgresError, withSetupLock }, { PostgresSaver }, { PostgresThreadStore, setupPostgresThreadTables }, { checkpointSerde }] =
    await Promise.all([import("./pg-pool.js"), import("@langchain/langgraph-checkpoint-postgres"), import("./pg-threads.js"), import("./serde.js")]);
  const pool = await openPostgresPool(database.url);
  const checkpointer = new PostgresSaver(pool, checkpointSerde());
  try {
    await withSetupLock(pool, async () => {
      await checkpointer.setup();
      await setupPostgresThreadTables(pool);
    });
  } catch (cause) {
    await pool.end().catch(() => {});
    throw cause instanceof YoloError ? cause : postgresError(database.url, cause);
  }
  return { checkpointer, threads: new PostgresThreadStore(pool), close: () => pool.end() };
}

/** An open database whose LangGraph checkpointer is loaded on first use (a run's start needs only the thread index). */
export interface DeferredStorage {
  threads: ThreadStore;
  /** The whole storage: LangGraph's checkpointer is loaded (once) on the first call. */
  full(): Promise<Storage>;
  /** SQLite: the checkpoint reader (src/store/checkpoint-rows.ts) on this same connection. */
  rows?(): Promise<{ checkpointRows(threadId: string): CheckpointRows }>;
  close(): Promise<void>;
}

/**
 * Like openStorage, but a SQLite file's checkpointer (LangGraph's modules) is loaded only when asked for: a run
 * records its start and says so first. The file is opened and checked here, so a bad one still fails before anything.
 */
export async function openStorageDeferred(database: ResolvedConfig["database"]): Promise<DeferredStorage> {
  if (database.kind !== "sqlite") {
    const storage = await openStorage(database);
    return { threads: storage.threads, full: async () => storage, close: () => storage.close() };
  }
  const [{ openDatabase, closeDatabase }, { SqliteThreadStore }] = await Promise.all([import("./db.js"), import("./sqlite-threads.js")]);
  const db = openDatabase(database.path);
  const threads = new SqliteThreadStore(db);
  const close = async () => void closeDatabase(db);
  let full: Promise<Storage> | null = null;
  return {
    threads,
    full: () => {
      full ??= import("./checkpointer.js").then(({ createCheckpointer }) => ({ checkpointer: createCheckpointer(db), threads, close }));
      return full;
    },
    rows: async () => {
      const { CheckpointRows } = await import("./checkpoint-rows.js");
      return { checkpointRows: (threadId: string) => new CheckpointRows(db, threadId) };
    },
    close,
  };
}
