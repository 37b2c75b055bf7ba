import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventBody, Usage } from "../../events/schema.js";
import type { RoleRecord } from "../../roles/types.js";
import type { EngineDeps } from "../deps.js";
import { nodeEndHooks, nodeStartHooks } from "../../hooks/step-hooks.js";
import { transcriptPath } from "../../store/artifacts.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { emitter, hookScope, threadIdOf } from "../nodes/context.js";
import { runRole } from "../nodes/agent-node.js";
import { checkRunLimits } from "../nodes/run-limits.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { storyPlan } from "../../roles/story-plan.js";
import { recordSpend, spentByOthers, takeTurn } from "./shared-spend.js";
import type { FanOut } from "./fan-out.js";
import { commitStory, ensureStoryWorktree, remadeWords, type StoryWorktree } from "./worktree.js";

/** The graph node one story's dev run is sent to (LangGraph `Send`), several at once. */
export const STORY_NODE = "story_dev";

/** What a `Send` to the story node carries: the thread's state when the story was dispatched, and which story. */
export type StoryInput = PipelineStateType & { storyId: string };

/** A story's name in transcripts and the workspace: the fanning-out node's, then the story's (`dev.<story>`). */
export const storyTranscript = (node: string, storyId: string) => `${node}.${storyId}`;

/** The part of the brief only a story's dev gets: build this story alone, in a copy of the project. */
function storyTask(id: string, others: number): string {
  return [
    `## Your story: ${id}`,
    "Build only the story above, with its tests. You work in your own copy of the project, on its own branch;" +
      (others
        ? ` ${others === 1 ? "another developer builds another story" : `${others} other developers build other stories`} at the same time, and yolo merges everything afterwards.`
        : "") +
      " Do not commit (yolo commits your work) and do not change files your story does not need.",
  ].join("\n");
}

/**
 * The story node: runs the fanning-out node's agent (the default pipeline's dev) on one story in the story's own git
 * worktree (found again on a resume, so an unfinished story continues where its files are), with the worktree as its
 * project root, its sandbox's only writable folder and the root of its file tools; its own transcript; only its own
 * story in its brief. yolo then commits the story on its branch and takes the files changed from git, not from the
 * model's handoff.
 */
export function storyRunNode(deps: EngineDeps, fanOut: FanOut, role: RoleRecord) {
  const { node } = fanOut;
  return async (input: StoryInput, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    const id = input.storyId;
    const threadId = threadIdOf(config);
    const plan = storyPlan(input.stories);
    const index = plan.findIndex((s) => s.id === id);
    if (index < 0) throw new Error(`story ${id} is not in the thread's stories`);
    checkRunLimits(`story ${id}`, input, deps.config.limits);
    const started = performance.now();
    const storyConfig = storyScoped(config, threadId, id);
    const emit = emitter(storyConfig);
    const wt = await ensureStoryWorktree({ root: deps.config.root, stateDir: deps.config.stateDir, threadId, storyId: id });
    // A resumed story whose worktree was gone: what its interrupted run had not committed is not there any more.
    if (wt.remade)
      emit({
        type: "warning",
        message: remadeWords(id, wt, `what its interrupted run had not committed is not in it, and its ${node} starts again from the branch`),
      });
    const planned = plan[index];
    emit({ type: "story.started", story: id, title: planned.title, dependsOn: planned.dependsOn, branch: wt.branch });
    emit({ type: "node.started", node, fixAttempt: 0, step: input.steps ?? 0 });
    const running = Object.values(input.storyRuns).filter((r) => r.status === "running" && r.id !== id).length;
    const state = { ...input, stories: [input.stories[index]], task: storyTask(id, running) } as PipelineStateType;
    const ran = await runStory({ deps, fanOut, role, wt, id, state, config: storyConfig });
    const files = await commitStory(
      deps.config.root,
      wt,
      `yolo(${threadId}): ${planned.title} (story ${id})\n\n${ran.summary}\n\nYolo-Thread: ${threadId}\nYolo-Story: ${id}\n`,
    );
    const { escalated, summary, usage } = ran;
    emit({ type: "story.completed", story: id, status: escalated ? "failed" : "done", filesChanged: files, usage, summary });
    emit({ type: "node.completed", node, summary: escalated ? summary : `story ${id}: ${files.length} file${files.length === 1 ? "" : "s"} changed` });
    const update: PipelineUpdate = {
      storyRuns: { [id]: { id, status: escalated ? "failed" : "done", filesChanged: files, usage, summary, worktree: wt.path, branch: wt.branch } },
      filesChanged: files,
      usage,
      usageByNode: { [node]: usage },
      visits: { [node]: 1 },
      steps: 1,
      storyWallMs: Math.max(1, Math.round(performance.now() - started)),
    };
    // A story's question goes to a human like any agent's: the thread waits, and the story runs again with the answer.
    if (escalated) Object.assign(update, { escalateToHuman: true, question: `Story ${id} (${planned.title}): ${ran.question}`, askedBy: node });
    return update;
  };
}

// Every event of the story's run carries its id; its model calls count toward the thread's budget at once.
function storyScoped(config: LangGraphRunnableConfig, threadId: string, storyId: string): LangGraphRunnableConfig {
  return {
    ...config,
    writer: (event: unknown) => {
      const e = event as EventBody;
      if (e.type === "usage") recordSpend(threadId, storyId, e.usage);
      config.writer?.({ ...e, story: storyId });
    },
  };
}

/**
 * One story's agent run inside its worktree, between the user's step hooks (they run for each story as for any step
 * of that agent, with the story's transcript). The limits the stories share are counted across them.
 */
async function runStory(input: {
  deps: EngineDeps;
  fanOut: FanOut;
  role: RoleRecord;
  wt: StoryWorktree;
  id: string;
  state: PipelineStateType;
  config: LangGraphRunnableConfig;
}): Promise<{ escalated: boolean; summary: string; question: string; usage: Usage }> {
  const { deps, fanOut, role, wt, id, state, config } = input;
  const { node, agentId } = fanOut;
  const threadId = threadIdOf(config);
  const agent = deps.agents.get(agentId);
  const turnLimit = deps.config.limits.maxTurnsOverride ?? agent?.maxTurns ?? deps.config.limits.maxTurns;
  const storyDeps: EngineDeps = {
    ...deps,
    config: Object.freeze({ ...deps.config, root: wt.root }),
    sharedLimits: () => {
      takeTurn(threadId, turnLimit, node);
      return spentByOthers(threadId, id);
    },
    // The story's commit is yolo's, on the story's branch; the thread's branch gets it when it is merged.
    workspace: undefined,
  };
  const subject = { node, agent: agentId, role: role.kind, mode: state.mode };
  const scope = {
    ...hookScope(config, storyDeps, node),
    transcriptPath: transcriptPath(threadArtifactsDir(deps.config.stateDir, threadId), storyTranscript(node, id)),
  };
  await nodeStartHooks(deps.hooks, subject, { fixAttempt: 0, step: state.steps ?? 0 }, scope);
  const out = await runRole({ node, agentId, role, flags: [], transcript: storyTranscript(node, id) }, state, config, storyDeps);
  const h = out.handoff;
  const escalated = h.escalate_to_human === true;
  const question = String(h.question ?? "");
  const summary = escalated ? `asks a human: ${question}` : String(h.summary ?? "");
  await nodeEndHooks(deps.hooks, subject, { outcome: escalated ? "escalated" : "handoff", summary, filesChanged: out.filesChanged, usage: out.usage }, scope);
  return { escalated, summary, question, usage: out.usage };
}
