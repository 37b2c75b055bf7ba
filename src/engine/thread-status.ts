import type { ThreadRow } from "../store/thread-store.js";
import type { ThreadIndex } from "../store/thread-index.js";
import type { Session } from "./session.js";
import type { Story } from "../state/pipeline.js";
import { mergeStoryRuns, type StoryRun } from "../state/story-runs.js";

/**
 * A thread row as it stands now. A row says `running` from the moment a run starts until it ends; when the
 * process was killed it never ends, so a `running` row whose lease no live process holds is shown as
 * `interrupted`, and its reason says whether there is anything to resume (no checkpoint: the run was killed
 * before its first step). The stored row is left as it is: the next run of the thread rewrites it.
 */
export async function currentRow(session: Session | ThreadIndex, row: ThreadRow, words: KilledWords = neutralKilled): Promise<ThreadRow> {
  if (row.status !== "running" || (await session.threads.isLive(row.id))) return row;
  const saved =
    "hasCheckpoint" in session
      ? await session.hasCheckpoint(row.id)
      : (await session.checkpointer.getTuple({ configurable: { thread_id: row.id } })) !== undefined;
  return { ...row, status: "interrupted", reason: words({ thread: row.id, saved }) };
}

/** The reason of a killed thread's row from the facts (is a step saved?), as the front end words it. */
export type KilledWords = (fact: { thread: string; saved: boolean }) => string;

const neutralKilled: KilledWords = ({ saved }) =>
  saved
    ? "its process stopped without finishing (killed?); the last completed step is saved: resume the thread"
    : "its process stopped before the first step was saved; nothing to resume: start it again";

/**
 * A thread's story runs (docs/stories.md) and pm's stories, from its latest checkpoint, without building its graph:
 * cheap enough for every row of `yolo threads` (on SQLite the thread index reads the checkpoint row itself).
 */
export async function threadStoryRuns(session: Session | ThreadIndex, threadId: string): Promise<{ runs: Record<string, StoryRun>; stories: Story[] }> {
  let values: { storyRuns?: unknown; stories?: unknown };
  let pending: Array<[string, string, unknown]>;
  if ("latestValues" in session) {
    values = await session.latestValues(threadId);
    pending = latestWrites(session, threadId);
  } else {
    const tuple = await session.checkpointer.getTuple({ configurable: { thread_id: threadId } });
    values = tuple?.checkpoint.channel_values ?? {};
    pending = (tuple?.pendingWrites ?? []) as Array<[string, string, unknown]>;
  }
  const stored = values.storyRuns && typeof values.storyRuns === "object" ? (values.storyRuns as Record<string, StoryRun>) : {};
  return { runs: withFinishedStories(stored, pending), stories: Array.isArray(values.stories) ? (values.stories as Story[]) : [] };
}

/**
 * Stories run side by side in one graph step, so a finished story's record is a saved write of that step until the
 * whole step ends: applied here (as LangGraph's getState applies them), a story that finished before a kill -9
 * lists as done with its tokens, not as running.
 */
function withFinishedStories(stored: Record<string, StoryRun>, pending: Array<[string, string, unknown]>): Record<string, StoryRun> {
  let runs = stored;
  for (const [task, channel, value] of pending) {
    if (channel !== "storyRuns" || task === NULL_TASK || !value || typeof value !== "object") continue;
    runs = mergeStoryRuns(runs, value as Record<string, Partial<StoryRun> & { id: string }>);
  }
  return runs;
}

const NULL_TASK = "00000000-0000-0000-0000-000000000000";

// The latest checkpoint's saved writes on SQLite (none elsewhere, or when they cannot be read).
function latestWrites(index: ThreadIndex, threadId: string): Array<[string, string, unknown]> {
  try {
    const rows = index.checkpointRows?.(threadId);
    const latest = rows?.ids()[0];
    return rows && latest !== undefined ? rows.writes(latest) : [];
  } catch {
    return [];
  }
}
