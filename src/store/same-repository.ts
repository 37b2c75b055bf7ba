import { ThreadError } from "../errors.js";
import type { ThreadStore } from "./thread-store.js";

/**
 * A thread is resumed in any working copy of its repository (another checkout, another machine sharing the
 * PostgreSQL database), never in a different repository: its checkpoints describe files that are not there.
 */
export async function assertSameRepository(threads: ThreadStore, threadId: string, repo: string): Promise<void> {
  const row = await threads.get(threadId);
  if (!row?.repo || row.repo === repo) return;
  const fact = { kind: "other-repository" as const, thread: threadId, repo: row.repo, root: row.root, host: row.host ?? null, here: repo };
  throw new ThreadError(`Thread ${threadId} belongs to repository ${row.repo}, but this working copy is ${repo}.`, fact);
}
