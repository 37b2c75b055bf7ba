import type { ResolvedConfig } from "../config/schema.js";
import { unknownThreadError } from "../errors.js";
import { type CheckpointRows, UnreadableCheckpoint } from "../store/checkpoint-rows.js";
import { type CheckpointView, checkpointView } from "../store/checkpoint-view.js";
import type { ThreadIndex } from "../store/thread-index.js";
import { openSession, type Session } from "./session.js";
import type { PipelineStateType } from "../state/pipeline.js";
import { configForProfile, graphNodeNames, profileOfValues } from "./thread-profile.js";
import { positionOf, savedAnswer, type ThreadPosition } from "./position.js";
import { withRefusedGates } from "./gate-refused.js";

export { answerWords } from "./position.js";

/**
 * `yolo show`'s data: a thread's latest state and where it stands. On SQLite the checkpoint reader answers without
 * loading LangGraph; on PostgreSQL, or for anything the reader does not reproduce exactly, LangGraph's getState does.
 */
export async function readThreadState(
  config: ResolvedConfig,
  index: ThreadIndex,
  threadId: string,
): Promise<{ values: PipelineStateType; position: ThreadPosition }> {
  const quick = readable(index, threadId, (rows) => {
    const latest = rows.ids()[0];
    if (latest === undefined) throw unknownThreadError(threadId);
    const view = checkpointView(rows, latest, { latest: true, nodes: nodesOf(config, rows, latest) });
    const position = positionOf(positionSource(view), savedAnswer(rows.writes(latest)));
    if (position.kind === "new") throw unknownThreadError(threadId);
    return { values: position.values, position };
  });
  if (quick) return { ...quick, values: await withRefusedGates(quick.values, config.stateDir, threadId) };
  const { inspectThread } = await import("./inspect.js");
  return withSession(config, index, (session) => inspectThread(config, session, threadId));
}

/**
 * A SQLite thread's latest state and position as LangGraph's getState gives them, read without LangGraph; null when
 * the reader cannot say it exactly (PostgreSQL, no checkpoint, a checkpoint it does not decode): ask LangGraph then.
 */
export function readLatestState(
  config: ResolvedConfig,
  index: Pick<ThreadIndex, "checkpointRows">,
  threadId: string,
): { values: PipelineStateType; position: Exclude<ThreadPosition, { kind: "new" }> } | null {
  return readable(index, threadId, (rows) => {
    const latest = rows.ids()[0];
    if (latest === undefined) return null;
    const view = checkpointView(rows, latest, { latest: true, nodes: nodesOf(config, rows, latest) });
    const position = positionOf(positionSource(view), savedAnswer(rows.writes(latest)));
    return position.kind === "new" ? null : { values: position.values, position };
  });
}

/** What positionOf reads, from a reader's view (LangGraph's StateSnapshot carries the same fields). */
export function positionSource(view: CheckpointView) {
  return { values: view.values, next: view.next, tasks: view.tasks, createdAt: view.createdAt, config: { configurable: { checkpoint_id: view.checkpointId } } };
}

// The nodes of the graph the thread's own profile compiles (as threadConfig picks it: from the latest checkpoint).
function nodesOf(config: ResolvedConfig, rows: CheckpointRows, latest: string): ReadonlySet<string> {
  return graphNodeNames(configForProfile(config, profileOfValues(rows.checkpoint(latest).channelValues)));
}

// The reader's answer, or null when there is no reader (PostgreSQL) or it met something it does not decode.
export function readable<T>(index: Pick<ThreadIndex, "checkpointRows">, threadId: string, read: (rows: CheckpointRows) => T): T | null {
  if (!index.checkpointRows) return null;
  try {
    return read(index.checkpointRows(threadId));
  } catch (error) {
    if (error instanceof UnreadableCheckpoint) return null;
    throw error;
  }
}

// LangGraph's path needs its checkpointer: the index's own storage (PostgreSQL) or the SQLite file opened again.
export async function withSession<T>(config: ResolvedConfig, index: ThreadIndex, use: (session: Session) => Promise<T>): Promise<T> {
  if (index.storage) return use(index.storage);
  const session = await openSession(config);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}
