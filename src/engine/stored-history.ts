import type { ResolvedConfig } from "../config/schema.js";
import { unknownThreadError } from "../errors.js";
import { checkpointView } from "../store/checkpoint-view.js";
import type { ThreadIndex } from "../store/thread-index.js";
import { type HistoryEntry, historyEntries } from "./history-entries.js";
import { readable, withSession } from "./stored-thread.js";
import { configForProfile, graphNodeNames, profileOfValues } from "./thread-profile.js";

// Apart from stored-thread.ts: the history's summaries need the roles (and their zod schemas), which `show` does not.
/** `yolo history`'s entries, oldest first: from the checkpoint reader on SQLite, else from LangGraph's state history. */
export async function readThreadHistory(config: ResolvedConfig, index: ThreadIndex, threadId: string): Promise<HistoryEntry[]> {
  const quick = readable(index, threadId, (rows) => {
    const ids = rows.ids();
    if (!ids.length) throw unknownThreadError(threadId);
    const threadConfig = configForProfile(config, profileOfValues(rows.checkpoint(ids[0]).channelValues));
    const nodes = graphNodeNames(threadConfig);
    const views = ids.map((id) => checkpointView(rows, id, { latest: false, nodes })).reverse();
    return historyEntries(
      views.map((v) => ({
        checkpointId: v.checkpointId,
        parentId: v.parentId ?? undefined,
        source: v.metadata.source,
        step: v.metadata.step,
        createdAt: v.createdAt,
        next: v.next,
        values: v.values,
      })),
      threadConfig,
    );
  });
  if (quick) return quick;
  const { threadHistory } = await import("./history.js");
  return withSession(config, index, (session) => threadHistory(config, session, threadId));
}
