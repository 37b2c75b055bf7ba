import { isDeepStrictEqual } from "node:util";
import { PipelineState, type PipelineStateType, type PipelineUpdate } from "../../state/pipeline.js";

type Reducer = (current: unknown, write: unknown) => unknown;

/**
 * Each state field's reducer, read from the compiled annotation (LangGraph's BinaryOperatorAggregate keeps it as
 * `operator`). A field without one (the gate history's delta channel) is always written.
 */
export const FIELD_REDUCERS: ReadonlyMap<string, Reducer> = new Map(
  Object.entries(PipelineState.spec).flatMap(([key, channel]) => {
    const operator = (channel as { operator?: unknown }).operator;
    return typeof operator === "function" ? [[key, operator as Reducer]] : [];
  }),
);

/**
 * The node's update without the writes that change nothing: a field whose reducer, applied to the value the node
 * started from, gives that same value back (`escalateToHuman: false` when it is already false, `filesChanged: []`).
 * Each write is a pending-write row, a serialisation and a channel version in every checkpoint; an agent node wrote
 * about four of these a step. The state after the step is the same either way, and routing reads only the state
 * (nodes are triggered by LangGraph's branch channels, never by a state field), so no route changes.
 * Only for a node that runs alone in its superstep (every workflow node: each router picks one target): beside a
 * parallel task's write to the same newest-wins field, a dropped write would no longer take part in the order.
 */
export function withoutNoOpWrites(update: PipelineUpdate, state: PipelineStateType): PipelineUpdate {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(update)) if (!changesNothing(key, value, state)) kept[key] = value;
  return kept as PipelineUpdate;
}

// Reducers are pure (LangGraph replays them from checkpoints too); anything unexpected keeps the write.
function changesNothing(key: string, value: unknown, state: PipelineStateType): boolean {
  const reducer = FIELD_REDUCERS.get(key);
  const current = (state as Record<string, unknown>)[key];
  if (!reducer || current === undefined || value === undefined || isOverwrite(value)) return false;
  try {
    return isDeepStrictEqual(reducer(current, value), current);
  } catch {
    return false;
  }
}

// LangGraph's `Overwrite` bypasses the reducer; yolo does not write one, but such a write is never judged here.
function isOverwrite(value: unknown): boolean {
  return typeof value === "object" && value !== null && ("__overwrite__" in value || (value as { type?: unknown }).type === "__overwrite__");
}
