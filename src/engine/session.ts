import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ResolvedConfig } from "../config/schema.js";
import { createCheckpointer } from "../store/checkpointer.js";
import { openDatabase } from "../store/db.js";
import { leaseIsLive } from "../store/lease.js";
import { ensureStateDir } from "../store/state-dir.js";
import { ThreadIndex } from "../store/threads.js";

/** The durable side of a project: the SQLite file with LangGraph's checkpoints and yolo's thread index. */
export interface Session {
  checkpointer: BaseCheckpointSaver;
  index: ThreadIndex;
  /** Whether a live process is running the thread now (holds its lease). */
  isLive(threadId: string): boolean;
  close(): void;
}

/** Opens (creating if needed) the project's `.yolo/` folder and database. */
export function openSession(config: ResolvedConfig): Session {
  ensureStateDir(config.root);
  const db = openDatabase(config.dbPath);
  return {
    checkpointer: createCheckpointer(db),
    index: new ThreadIndex(db),
    isLive: (threadId) => leaseIsLive(db, threadId),
    close: () => db.close(),
  };
}
