import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { positionOf, type PositionSource, savedAnswer, type ThreadPosition } from "./position.js";

/**
 * Where a thread stands as LangGraph reads it. getState leaves out the writes of no task, so the answer a killed
 * resume saved (a null-task `__resume__` write) is read from the same checkpoint's tuple: without it an answered
 * thread would look as if it still waited.
 */
export async function positionFromLangGraph(
  graph: { getState(config: { configurable: { thread_id: string } }): Promise<PositionSource> },
  checkpointer: Pick<BaseCheckpointSaver, "getTuple">,
  threadId: string,
): Promise<ThreadPosition> {
  const config = { configurable: { thread_id: threadId } };
  const [snapshot, tuple] = await Promise.all([graph.getState(config), checkpointer.getTuple(config)]);
  // Both read the newest checkpoint; a step saved between the two reads leaves the answer out (it was taken).
  const same = tuple && tuple.config.configurable?.checkpoint_id === snapshot.config?.configurable?.checkpoint_id;
  return positionOf(snapshot, same ? savedAnswer(tuple.pendingWrites ?? []) : undefined);
}
