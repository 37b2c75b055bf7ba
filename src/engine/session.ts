import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ResolvedConfig } from "../config/schema.js";
import { type DeferredStorage, openStorage, openStorageDeferred } from "../store/open-storage.js";
import { describePostgresUrl } from "../store/pg-pool.js";
import { ensureArtifactsDir, STATE_DIR_NAME } from "../store/state-dir.js";
import type { ThreadStore } from "../store/thread-store.js";
import { openThreadIndex, type ThreadIndex } from "../store/thread-index.js";

/** The durable side of a project: LangGraph's checkpoints and yolo's thread index (SQLite or PostgreSQL). */
export interface Session {
  checkpointer: BaseCheckpointSaver;
  threads: ThreadStore;
  close(): Promise<void>;
}

/** Opens (creating if needed) the artifacts folder and the configured database. */
export async function openSession(config: ResolvedConfig): Promise<Session> {
  ensureStateDirs(config);
  return openStorage(config.database);
}

/** Like openSession, for commands that only list threads: the thread index, without LangGraph's checkpointer. */
export async function openIndex(config: ResolvedConfig): Promise<ThreadIndex> {
  ensureStateDirs(config);
  return openThreadIndex(config.database);
}

function ensureStateDirs(config: ResolvedConfig): void {
  ensureArtifactsDir(config.stateDir);
  // A SQLite file in the default place gets the same self-ignoring folder, wherever artifacts go.
  if (config.database.kind === "sqlite" && dirname(config.database.path) === join(config.root, STATE_DIR_NAME)) {
    ensureArtifactsDir(join(config.root, STATE_DIR_NAME));
  }
}

/** False only for a SQLite file that does not exist yet (a PostgreSQL database is asked instead). */
export function databaseExists(config: ResolvedConfig): boolean {
  return config.database.kind === "postgres" || existsSync(config.database.path);
}

/** What messages call the database: the SQLite path, or `user@host:port/db` (never a password). */
export function databaseName(config: ResolvedConfig): string {
  return config.database.kind === "sqlite" ? config.database.path : describePostgresUrl(config.database.url);
}

/** A session whose LangGraph checkpointer is loaded on first use (src/store/open-storage.ts openStorageDeferred). */
export interface DeferredSession {
  threads: ThreadStore;
  /** The whole session; the first call loads LangGraph's checkpointer. */
  session(): Promise<Session>;
  /** SQLite: the checkpoint reader on the session's connection (src/store/open-storage.ts). */
  rows?: DeferredStorage["rows"];
  close(): Promise<void>;
}

/** Like openSession, for a run that states its start before it loads LangGraph: the database is opened and checked now. */
export async function openSessionDeferred(config: ResolvedConfig): Promise<DeferredSession> {
  ensureStateDirs(config);
  const storage = await openStorageDeferred(config.database);
  return { threads: storage.threads, session: () => storage.full(), ...(storage.rows ? { rows: storage.rows } : {}), close: () => storage.close() };
}
