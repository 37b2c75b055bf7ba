import { BUILT_IN_ROLES } from "../../roles/registry.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventBody } from "../../events/schema.js";
import type { EngineDeps } from "../deps.js";
import { nodeEndHooks, nodeStartHooks } from "../../hooks/step-hooks.js";
import { transcriptPath } from "../../store/artifacts.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { emitter, hookScope, threadIdOf } from "../nodes/context.js";
import { runRole } from "../nodes/agent-node.js";
import { checkRunLimits } from "../nodes/run-limits.js";
import type { PipelineStateType, PipelineUpdate } from "../state.js";
import { storyPlan } from "../../roles/story-plan.js";
import { recordSpend, spentByOthers, takeTurn } from "./shared-spend.js";
import { commitStory, ensureStoryWorktree, remadeWords } from "./worktree.js";

/** The graph node one story's dev run is sent to (LangGraph `Send`), several at once. */
export const STORY_NODE = "story_dev";

/** What a `Send` to the story node carries: the thread's state when the story was dispatched, and which story. */
export type StoryInput = PipelineStateType & { storyId: string };

/** A story's `dev` node name in events and transcripts (`dev.<story>`). */
export const storyTranscript = (storyId: string) => `dev.${storyId}`;

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
 * The story node: runs the dev agent on one story in the story's own git worktree (found again on a resume, so an
 * unfinished story continues where its files are), with the worktree as its project root, its sandbox's only
 * writable folder and the root of its file tools; its own transcript; only its own story in its brief. yolo then
 * commits the story on its branch and takes the files changed from git, not from the model's handoff.
 */
export function storyDevNode(deps: EngineDeps) {
  return async (input: StoryInput, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    const id = input.storyId;
    const threadId = threadIdOf(config);
    const plan = storyPlan(input.stories);
    const index = plan.findIndex((s) => s.id === id);
    if (index < 0) throw new Error(`story ${id} is not in pm's stories`);
    checkRunLimits(`story ${id}`, input, deps.config.limits);
    const started = performance.now();
    // Every event of the story's run carries its id; its model calls count toward the thread's budget at once.
    const storyConfig: LangGraphRunnableConfig = {
      ...config,
      writer: (event: unknown) => {
        const e = event as EventBody;
        if (e.type === "usage") recordSpend(threadId, id, e.usage);
        config.writer?.({ ...e, story: id });
      },
    };
    const emit = emitter(storyConfig);
    const wt = await ensureStoryWorktree({ root: deps.config.root, stateDir: deps.config.stateDir, threadId, storyId: id });
    // A resumed story whose worktree was gone: what its interrupted run had not committed is not there any more.
    if (wt.remade)
      emit({
        type: "warning",
        message: remadeWords(id, wt, "what its interrupted run had not committed is not in it, and its dev starts again from the branch"),
      });
    const planned = plan[index];
    emit({ type: "story.started", story: id, title: planned.title, dependsOn: planned.dependsOn, branch: wt.branch });
    emit({ type: "node.started", node: "dev", fixAttempt: 0, step: input.steps ?? 0 });
    const storyDeps: EngineDeps = {
      ...deps,
      config: Object.freeze({ ...deps.config, root: wt.root }),
      sharedLimits: () => {
        takeTurn(threadId, turnLimit);
        return spentByOthers(threadId, id);
      },
      // The story's commit is yolo's, on the story's branch; the thread's branch gets it when it is merged.
      workspace: undefined,
    };
    const agent = deps.agents.get("dev");
    const turnLimit = deps.config.limits.maxTurnsOverride ?? agent?.maxTurns ?? deps.config.limits.maxTurns;
    const running = Object.values(input.storyRuns).filter((r) => r.status === "running" && r.id !== id).length;
    const state = { ...input, stories: [input.stories[index]], task: storyTask(id, running) } as PipelineStateType;
    // The user's step hooks run for each story's dev as for any dev step, with the story's transcript.
    const subject = { node: "dev", agent: "dev", role: "dev" as const, mode: input.mode };
    const scope = {
      ...hookScope(storyConfig, storyDeps, "dev"),
      transcriptPath: transcriptPath(threadArtifactsDir(deps.config.stateDir, threadId), storyTranscript(id)),
    };
    await nodeStartHooks(deps.hooks, subject, { fixAttempt: 0, step: input.steps ?? 0 }, scope);
    const out = await runRole(
      { node: "dev", agentId: "dev", role: BUILT_IN_ROLES.dev, flags: [], transcript: storyTranscript(id) },
      state,
      storyConfig,
      storyDeps,
    );
    const h = out.handoff;
    const escalated = h.escalate_to_human === true;
    const summary = escalated ? `asks a human: ${String(h.question ?? "")}` : String(h.summary ?? "");
    await nodeEndHooks(deps.hooks, subject, { outcome: escalated ? "escalated" : "handoff", summary, filesChanged: out.filesChanged, usage: out.usage }, scope);
    const files = await commitStory(
      deps.config.root,
      wt,
      `yolo(${threadId}): ${planned.title} (story ${id})\n\n${summary}\n\nYolo-Thread: ${threadId}\nYolo-Story: ${id}\n`,
    );
    emit({ type: "story.completed", story: id, status: escalated ? "failed" : "done", filesChanged: files, usage: out.usage, summary });
    emit({ type: "node.completed", node: "dev", summary: escalated ? summary : `story ${id}: ${files.length} file${files.length === 1 ? "" : "s"} changed` });
    const update: PipelineUpdate = {
      storyRuns: { [id]: { id, status: escalated ? "failed" : "done", filesChanged: files, usage: out.usage, summary, worktree: wt.path, branch: wt.branch } },
      filesChanged: files,
      usage: out.usage,
      usageByNode: { dev: out.usage },
      visits: { dev: 1 },
      steps: 1,
      storyWallMs: Math.max(1, Math.round(performance.now() - started)),
    };
    // A story's question goes to a human like any dev's: the thread waits, and the story runs again with the answer.
    if (escalated) Object.assign(update, { escalateToHuman: true, question: `Story ${id} (${planned.title}): ${String(h.question ?? "")}`, askedBy: "dev" });
    return update;
  };
}
