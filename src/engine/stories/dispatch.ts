import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { Send } from "@langchain/langgraph";
import { isGitRepo } from "../../git/repo.js";
import type { EngineDeps } from "../deps.js";
import { emitter } from "../nodes/context.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { type PlannedStory, storyPlan } from "../../roles/story-plan.js";
import type { FanOut } from "./fan-out.js";
import { STORY_NODE } from "./story-node.js";
import type { StoryRun } from "../../state/story-runs.js";

type NodeFn = (state: PipelineStateType, config: LangGraphRunnableConfig) => Promise<PipelineUpdate>;
type RunUpdates = Record<string, Partial<StoryRun> & { id: string }>;

/** The thread's `parallel`: `--parallel` when given, else the value the thread started with, else the config's. */
export function parallelOf(state: Pick<PipelineStateType, "storyParallel">, deps: EngineDeps): number {
  return deps.config.parallelFromFlag ? deps.config.parallel : (state.storyParallel ?? deps.config.parallel);
}

/**
 * Whether a plan gains from running stories at the same time: some two stories can be built at once. A single
 * story or a chain (every old handoff: each story depends on all before it) runs as before, one run for all.
 */
export function hasParallelism(plan: readonly PlannedStory[]): boolean {
  const done = new Set<string>();
  let left = [...plan];
  while (left.length) {
    const ready = left.filter((s) => s.dependsOn.every((d) => done.has(d)));
    if (ready.length > 1) return true;
    if (!ready.length) return false;
    for (const s of ready) done.add(s.id);
    left = left.filter((s) => !done.has(s.id));
  }
  return false;
}

/** The next stories to start: pending, every dependency merged, in story order, as many as free slots allow. */
export function nextBatch(plan: readonly PlannedStory[], runs: Record<string, Pick<StoryRun, "status">>, parallel: number): string[] {
  const status = (id: string) => runs[id]?.status ?? "pending";
  const slots = parallel - plan.filter((s) => status(s.id) === "running").length;
  const ready = plan.filter((s) => status(s.id) === "pending" && s.dependsOn.every((d) => status(d) === "merged"));
  return ready.slice(0, Math.max(0, slots)).map((s) => s.id);
}

/**
 * The node whose role fans out stories (the default pipeline's dev). With `parallel` 1, a plan without two
 * independent stories, a fix attempt (one run on the merged tree) or no git repository, it is the plain agent node.
 * Otherwise it becomes the dispatcher: records every story (a failed one, whose question a human answered, is
 * pending again) and marks the first ready ones running; its router sends each to the story node.
 */
export function runOrDispatch(run: NodeFn, deps: EngineDeps, fanOut: FanOut): NodeFn {
  const { node } = fanOut;
  return async (state, config) => {
    const parallel = parallelOf(state, deps);
    const plan = storyPlan(state.stories);
    const allMerged = plan.every((s) => state.storyRuns[s.id]?.status === "merged");
    const fansOut = !state.gateBlocked && parallel > 1 && !allMerged && hasParallelism(plan) && (await isGitRepo(deps.config.root));
    if (!fansOut) return { ...(await run(state, config)), storyParallel: parallel };
    const emit = emitter(config);
    emit({ type: "node.started", node, fixAttempt: 0, step: state.steps ?? 0 });
    const runs: RunUpdates = {};
    const statuses: Record<string, Pick<StoryRun, "status">> = {};
    for (const s of plan) {
      const old = state.storyRuns[s.id];
      const status = !old || old.status === "failed" ? "pending" : old.status;
      statuses[s.id] = { status };
      if (!old) runs[s.id] = { ...newRun(s), id: s.id };
      else if (old.status === "failed") runs[s.id] = { id: s.id, status: "pending" };
    }
    for (const id of nextBatch(plan, statuses, parallel)) runs[id] = { ...runs[id], id, status: "running" };
    const started = Object.values(runs).filter((r) => r.status === "running").length;
    emit({ type: "node.completed", node, summary: `${plan.length} stories: ${started} started, up to ${parallel} at a time` });
    return { storyRuns: runs, storiesActive: true, storyParallel: parallel, visits: { [node]: 1 } };
  };
}

function newRun(s: PlannedStory): Omit<StoryRun, "id"> {
  return {
    title: s.title,
    dependsOn: s.dependsOn,
    status: "pending",
    branch: "",
    worktree: null,
    filesChanged: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0, cachedTokens: 0 },
    summary: null,
    conflicts: [],
  };
}

/** A `Send` to the story node for each running story, or null when none runs (the pipeline goes on as after dev). */
export function storySends(state: PipelineStateType): Send[] | null {
  if (!state.storiesActive || state.escalateToHuman) return null;
  const running = storyPlan(state.stories).filter((s) => state.storyRuns[s.id]?.status === "running");
  return running.length ? running.map((s) => new Send(STORY_NODE, { ...state, storyId: s.id })) : null;
}
