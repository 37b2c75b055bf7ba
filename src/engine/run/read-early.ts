import type { ResolvedConfig } from "../../config/schema.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import type { ThreadStore } from "../../store/thread-store.js";
import type { ThreadPosition } from "../position.js";
import { readLatestState } from "../stored-thread.js";

export { decideInput } from "./input-decision.js";

// Light (no LangGraph): how a resumed leg reads where its thread stands and decides what it runs before its engine
// loads. src/engine/run/launch.ts imports it for every resume (the CLI asks for it early, see preloadLightResume).

/**
 * Where a resumed thread stands, read by the checkpoint reader on SQLite, or null when LangGraph must read it: the
 * reader stands in only for exactly what LangGraph would see (it decodes the latest checkpoint, and no killed process
 * left usage in the thread's row to settle into that checkpoint first).
 */
export async function readEarly(
  baseConfig: ResolvedConfig,
  rows: Pick<ThreadIndex, "checkpointRows">,
  threads: Pick<ThreadStore, "get">,
  threadId: string,
): Promise<ThreadPosition | null> {
  const row = await threads.get(threadId);
  if (!row || row.unsettledUsage) return null;
  // The configured (not the thread's) config: the reader compiles the thread's own profile from it, as `show` does.
  return readLatestState(baseConfig, rows, threadId)?.position ?? null;
}
