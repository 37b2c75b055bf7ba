import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ResolvedConfig } from "../../config/schema.js";
import { formatDuration } from "../../config/duration.js";
import { limitError } from "../../errors.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { withoutNoOpWrites } from "./unchanged-writes.js";

type NodeFn = (state: PipelineStateType, config: LangGraphRunnableConfig) => Promise<PipelineUpdate>;

/**
 * Wraps every node of the graph with the thread's own limits, counted in checkpointed state so they hold
 * across resumes: before the node runs, the steps and the active time so far are checked (a stop there leaves
 * the last checkpoint as it is, and the node runs on a resume with a raised limit); when it completes, its
 * update adds one step and its duration, and leaves out the writes that change nothing (unchanged-writes.ts). A step
 * that is running when the time runs out finishes and is saved: cutting it would throw away model calls already paid
 * for, and the node would start again from its top.
 */
export function withRunLimits(node: string, fn: NodeFn, limits: Pick<ResolvedConfig["limits"], "maxSteps" | "maxTimeMs">): NodeFn {
  return async (state, config) => {
    checkRunLimits(node, state, limits);
    const started = performance.now();
    const update = withoutNoOpWrites(await fn(state, config), state);
    return { ...update, steps: 1, activeMs: Math.max(0, Math.round(performance.now() - started)) };
  };
}

/** Throws a LimitError when the thread has used its steps or its active time; `node` is the one that would run next. */
export function checkRunLimits(
  node: string,
  state: Pick<PipelineStateType, "steps" | "activeMs">,
  limits: Pick<ResolvedConfig["limits"], "maxSteps" | "maxTimeMs">,
): void {
  const steps = state.steps ?? 0;
  if (steps >= limits.maxSteps) {
    const said = `The run reached its step limit: ${steps} of ${limits.maxSteps} steps, resumes included, before ${node}.`;
    throw limitError({ kind: "steps", setting: "maxSteps", said }, "The thread is saved: resume it with a higher limits.maxSteps.");
  }
  const active = state.activeMs ?? 0;
  if (limits.maxTimeMs !== null && active >= limits.maxTimeMs) {
    const said = `The run reached its time limit: ${formatDuration(active)} of ${formatDuration(limits.maxTimeMs)} active, resumes included, before ${node}.`;
    throw limitError({ kind: "time", setting: "maxTime", said }, "The thread is saved: resume it with a higher limits.maxTime.");
  }
}
