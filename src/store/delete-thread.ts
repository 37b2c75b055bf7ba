import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { ThreadError } from "../errors.js";
import type { ThreadStore } from "./thread-store.js";

/** What deleting a thread removed. */
export interface DeletedThread {
  id: string;
  /** The artifacts removed (thread folder, run log) that were on this machine. */
  files: string[];
}

/**
 * Deletes one thread for good: its checkpoints, its index row and its artifacts (transcripts, gate logs, run log)
 * in `artifactsDir`. Takes the thread's lease first, so a thread another process is running is refused
 * (ThreadError) and no run can start on it while it goes.
 */
export async function deleteThread(
  store: { checkpointer: BaseCheckpointSaver; threads: ThreadStore },
  artifactsDir: string,
  id: string,
): Promise<DeletedThread> {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new ThreadError(`"${id}" is not a valid thread id.`, { kind: "invalid-thread-id", thread: id });
  const lease = await store.threads.acquireLease(id);
  try {
    await store.checkpointer.deleteThread(id);
    await store.threads.remove(id);
    const files = [join(artifactsDir, "threads", id), join(artifactsDir, "logs", `${id}.log`)].filter((f) => existsSync(f));
    for (const file of files) rmSync(file, { recursive: true, force: true });
    return { id, files };
  } finally {
    await lease.release();
  }
}
