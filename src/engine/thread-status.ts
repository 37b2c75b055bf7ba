import type { ThreadRow } from "../store/thread-store.js";
import type { ThreadIndex } from "../store/thread-index.js";
import type { Session } from "./session.js";

/**
 * A thread row as it stands now. A row says `running` from the moment a run starts until it ends; when the
 * process was killed it never ends, so a `running` row whose lease no live process holds is shown as
 * `interrupted`, and its reason says whether there is anything to resume (no checkpoint: the run was killed
 * before its first step). The stored row is left as it is: the next run of the thread rewrites it.
 */
export async function currentRow(session: Session | ThreadIndex, row: ThreadRow): Promise<ThreadRow> {
  if (row.status !== "running" || (await session.threads.isLive(row.id))) return row;
  const saved =
    "hasCheckpoint" in session ? await session.hasCheckpoint(row.id) : (await session.checkpointer.getTuple({ configurable: { thread_id: row.id } })) !== undefined;
  const reason = saved
    ? `its process stopped without finishing (killed?); the last completed step is saved: yolo resume ${row.id}`
    : "its process stopped before the first step was saved; nothing to resume: start it again with yolo run";
  return { ...row, status: "interrupted", reason };
}
