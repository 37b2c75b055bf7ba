import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventBody, Usage } from "../../events/schema.js";
import { LimitError } from "../../errors.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import type { EngineDeps } from "../deps.js";
import type { HookScope } from "../../hooks/hooks.js";
import { transcriptPath } from "../../store/artifacts.js";
import { threadArtifactsPath } from "../../store/state-dir.js";

/** Emits a yolo event through the graph's writer: the run's own handler (engine/graph-writes.ts, engine/run/start.ts). */
export function emitter(config: LangGraphRunnableConfig): (event: EventBody) => void {
  return (event) => config.writer?.(event);
}

export function threadIdOf(config: LangGraphRunnableConfig): string {
  const id = config.configurable?.thread_id;
  if (typeof id !== "string") throw new Error("thread_id missing from the graph config");
  return id;
}

/** Refuses to run a node past its `maxVisits`; the run stops as a resumable limit. */
export function checkVisits(node: string, state: PipelineStateType, maxVisits: number | undefined): void {
  if (maxVisits !== undefined && (state.visits[node] ?? 0) >= maxVisits) {
    throw new LimitError(
      "steps",
      `${node} already ran ${maxVisits} times in this thread (its maxVisits); the loop it is in did not settle. Raise maxVisits in the workflow and resume.`,
    );
  }
}

/** Reports a node's completion and adds what every node update carries: its visit and its usage. */
export function finish(node: string, config: LangGraphRunnableConfig, update: PipelineUpdate, usage: Usage | null, summary: string): PipelineUpdate {
  emitter(config)({
    type: "node.completed",
    node,
    summary: update.escalateToHuman ? `asks a human: ${update.question}` : summary,
    ...(update.gateBlocked === true ? { blocked: true } : {}),
  });
  return { ...update, visits: { [node]: 1 }, ...(usage ? { usage, usageByNode: { [node]: usage } } : {}) };
}

/** Where a node's hooks run from: its thread, its transcript (named, not created: a step calls this several times), its event stream and its abort signal. */
export function hookScope(config: LangGraphRunnableConfig, deps: EngineDeps, node: string): HookScope {
  const threadId = threadIdOf(config);
  return {
    emit: emitter(config),
    threadId,
    node,
    transcriptPath: transcriptPath(threadArtifactsPath(deps.config.stateDir, threadId), node),
    signal: config.signal,
  };
}
