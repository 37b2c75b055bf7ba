import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventBody, Usage } from "../../events/schema.js";
import { addUsage, ZERO_USAGE } from "../../events/usage.js";
import { fence } from "../../text/fence.js";
import { readProjectText } from "../../secrets/project-read.js";
import type { RoleRecord } from "../../roles/types.js";
import type { EngineDeps } from "../deps.js";
import { emitter, threadIdOf } from "../nodes/context.js";
import { runRole } from "../nodes/agent-node.js";
import { checkRunLimits } from "../nodes/run-limits.js";
import type { PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { nextBatch, parallelOf } from "./dispatch.js";
import { filesWithMarkers, MergeRefused, mergeStory } from "./merge.js";
import { type PlannedStory, storyPlan } from "../../roles/story-plan.js";
import type { FanOut } from "./fan-out.js";
import { clearSpend } from "./shared-spend.js";
import type { StoryRun } from "../../state/story-runs.js";
import {
  ensureStoryWorktree,
  remadeWords,
  removeStoryWorktree,
  removeStoryWorktrees,
  restoreCommitted,
  storyBranch,
  storyBranchExists,
  storyCommits,
  type StoryWorktree,
} from "./worktree.js";

/** The graph node that merges finished stories into the thread's working tree. */
export const MERGE_NODE = "story_merge";
/** How many runs of the fanning-out agent a conflict gets before a human is asked (markers left behind, say). */
export const RESOLVE_ATTEMPTS = 2;

type RunUpdates = Record<string, Partial<StoryRun> & { id: string }>;

/**
 * Runs after each round of stories: merges every finished story's branch into the thread's working tree in story
 * order. A conflict is not a failure: a run of the fanning-out node's agent (dev) in the thread's tree (inside the
 * sandbox, like any of its runs) gets the files, both sides and the stories, and resolves it; yolo checks no conflict marker is left before going on. With
 * `--branch` each merged story becomes one commit on the thread's branch (a linear history). Then it starts the
 * stories whose dependencies are now merged, from the merged result, or hands the tree to the gate.
 */
export function storyMergeNode(deps: EngineDeps, fanOut: FanOut, role: RoleRecord) {
  const { node } = fanOut;
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    checkRunLimits(MERGE_NODE, state, deps.config.limits);
    const started = performance.now();
    const threadId = threadIdOf(config);
    const root = deps.config.root;
    const emit = emitter(config);
    // Every story of the round is in state now: the budget reads their usage from there.
    clearSpend(threadId);
    const plan = storyPlan(state.stories);
    const runs: RunUpdates = {};
    let usage: Usage = ZERO_USAGE;
    let escalation: PipelineUpdate | null = null;
    const mergedFiles = new Map<string, string[]>();
    const resolvedFiles = new Set<string>();
    for (const s of plan) {
      const run = state.storyRuns[s.id];
      if (run?.status === "merged") mergedFiles.set(s.id, run.filesChanged);
      if (run?.status !== "done" || escalation) continue;
      const found = await committedWork(root, deps.config.stateDir, threadId, s, emit);
      if (!found) {
        runs[s.id] = { id: s.id, status: "pending" };
        continue;
      }
      const { wt, commits } = found;
      const merged = await mergeOrRefuse(root, wt, commits, s.id);
      if ("refused" in merged) {
        runs[s.id] = { id: s.id, status: "failed", summary: `not merged: ${merged.refused}` };
        emit({ type: "warning", message: `Story ${s.id} (${s.title}) was not merged: ${merged.refused}.` });
        escalation = refusedMerge(node, s, wt.branch, merged.refused);
        continue;
      }
      const { conflicts } = merged;
      if (conflicts.length) {
        const others = plan.filter((o) => mergedFiles.get(o.id)?.some((f) => conflicts.includes(f)));
        const resolved = await resolveConflicts({ story: s, others, conflicts, state, config, deps, fanOut, role });
        usage = addUsage(usage, resolved.usage);
        for (const f of resolved.files) resolvedFiles.add(f);
        if (resolved.left.length || resolved.question) {
          const why = resolved.question ?? `conflict markers are still in ${resolved.left.join(", ")} after ${RESOLVE_ATTEMPTS} attempts by ${node}`;
          escalation = {
            escalateToHuman: true,
            askedBy: node,
            question: `Merging story ${s.id} (${s.title}) into the thread's working tree conflicted in ${conflicts.join(", ")}, and ${why}. Resolve the files in the working tree, then answer to continue.`,
          };
        }
      }
      if (deps.workspace) await deps.workspace.afterDev({ threadId, node: `${node}.${s.id}`, attempt: 1, stories: [s.title], summary: run.summary ?? "" });
      await removeStoryWorktree(root, wt);
      runs[s.id] = { id: s.id, status: "merged", conflicts, worktree: null };
      mergedFiles.set(s.id, run.filesChanged);
      emit({ type: "story.merged", story: s.id, conflicts } as EventBody);
    }
    const statuses = Object.fromEntries(plan.map((s) => [s.id, { status: runs[s.id]?.status ?? state.storyRuns[s.id]?.status ?? "pending" }]));
    const batch = escalation || state.escalateToHuman ? [] : nextBatch(plan, statuses, parallelOf(state, deps));
    for (const id of batch) runs[id] = { id, status: "running" };
    const allMerged = plan.every((s) => statuses[s.id].status === "merged");
    // Every story is in the thread's tree: their worktrees, `git worktree` entries, branches and base refs go.
    if (allMerged) await removeStoryWorktrees(root, deps.config.stateDir, threadId);
    const update: PipelineUpdate = {
      storyRuns: runs,
      storiesActive: !allMerged,
      ...(escalation ?? {}),
      ...(allMerged ? { devSummary: plan.map((s) => `${s.id}: ${state.storyRuns[s.id]?.summary ?? ""}`).join("\n") } : {}),
      steps: 1,
      // The round's wall time (its longest story), then this step's own.
      activeMs: state.storyWallMs + Math.round(performance.now() - started),
      storyWallMs: -1,
      visits: { [MERGE_NODE]: 1 },
    };
    if (usage.calls) Object.assign(update, { usage, usageByNode: { [node]: usage } });
    if (resolvedFiles.size) update.filesChanged = [...resolvedFiles];
    return update;
  };
}

// What a story whose merge was refused asks the human: its work is kept on its branch until the tree is fixed.
function refusedMerge(node: string, s: { id: string; title: string }, branch: string, refused: string): PipelineUpdate {
  return {
    escalateToHuman: true,
    askedBy: node,
    question: `Story ${s.id} (${s.title}) could not be merged into the thread's working tree: ${refused}. Its work is kept on branch ${branch}. Fix the working tree (remove the link or file in the way), then answer to continue: the story runs again and is merged.`,
  };
}

/**
 * A finished story's committed work, ready to merge: its worktree found (or made again from its branch) and holding
 * exactly its branch's tip, each repair said as a warning. Null when its branch is gone: its committed work went with
 * it, which is said, and the story is built again rather than merged as nothing.
 */
async function committedWork(
  root: string,
  stateDir: string,
  threadId: string,
  s: PlannedStory,
  emit: (e: EventBody) => void,
): Promise<{ wt: StoryWorktree; commits: { base: string; tip: string } } | null> {
  if (!(await storyBranchExists(root, threadId, s.id))) {
    emit({
      type: "warning",
      message: `Story ${s.id} (${s.title}): its branch ${storyBranch(threadId, s.id)} is gone, and with it the work it had committed; the story runs again.`,
    });
    return null;
  }
  const wt = await ensureStoryWorktree({ root, stateDir, threadId, storyId: s.id });
  if (wt.remade) emit({ type: "warning", message: remadeWords(s.id, wt, "its committed work is merged from there, nothing of it is lost") });
  const commits = await storyCommits(root, threadId, s.id);
  const restored = await restoreCommitted(root, wt, commits.tip);
  if (restored.length) {
    const shown = `${restored.slice(0, 5).join(", ")}${restored.length > 5 ? ", …" : ""}`;
    emit({
      type: "warning",
      message: `Story ${s.id} (${s.title}): its worktree no longer held what yolo committed (${shown}); it was put back from the branch, and the committed work is what is merged.`,
    });
  }
  return { wt, commits };
}

/** Merges one story, or says why its change cannot go into the tree (the story fails with that, the thread goes on). */
async function mergeOrRefuse(
  root: string,
  wt: StoryWorktree,
  commits: { base: string; tip: string },
  storyId: string,
): Promise<{ conflicts: string[] } | { refused: string }> {
  try {
    return await mergeStory(root, wt.root, commits, { ours: "merged stories", theirs: `story ${storyId}` });
  } catch (error) {
    if (error instanceof MergeRefused) return { refused: error.message };
    throw error;
  }
}

/**
 * The fanning-out node's agent (dev) resolves the conflicts of one story's merge in the thread's working tree. It is told the files (both sides
 * are in them between git's markers) and the stories involved; a run that leaves markers behind gets another try.
 */
async function resolveConflicts(input: {
  story: PlannedStory;
  others: PlannedStory[];
  conflicts: string[];
  state: PipelineStateType;
  config: LangGraphRunnableConfig;
  deps: EngineDeps;
  fanOut: FanOut;
  role: RoleRecord;
}): Promise<{ usage: Usage; left: string[]; question: string | null; files: string[] }> {
  const { story, conflicts, state, deps, role } = input;
  const { node, agentId } = input.fanOut;
  const config: LangGraphRunnableConfig = { ...input.config, writer: (e: unknown) => input.config.writer?.({ ...(e as EventBody), story: story.id }) };
  let usage: Usage = ZERO_USAGE;
  let left = conflicts;
  const files = new Set<string>();
  for (let attempt = 1; attempt <= RESOLVE_ATTEMPTS && left.length; attempt++) {
    const task = conflictTask(story, input.others, left, deps.config.root, attempt);
    const titles = new Set([story.title, ...input.others.map((o) => o.title)]);
    const briefState = { ...state, stories: state.stories.filter((s) => titles.has(s.title)), task } as PipelineStateType;
    const out = await runRole({ node, agentId, role, flags: [], transcript: `${node}.merge-${story.id}` }, briefState, config, deps);
    usage = addUsage(usage, out.usage);
    for (const f of out.filesChanged) files.add(f);
    if (out.handoff.escalate_to_human === true) return { usage, left, question: `${node} asked: ${String(out.handoff.question ?? "")}`, files: [...files] };
    left = filesWithMarkers(deps.config.root, conflicts);
  }
  return { usage, left, question: null, files: [...files] };
}

/** The conflict, in words for the agent resolving it: which files, what each side is, and what done means. */
function conflictTask(story: PlannedStory, others: PlannedStory[], files: string[], root: string, attempt: number): string {
  const sides = others.length ? `the stories merged before it (${others.map((o) => `${o.id}: ${o.title}`).join("; ")})` : "the work merged before it";
  const shown = files.map((f) => fence(`${f} with conflict markers`, head(root, f))).join("\n");
  return [
    `## Merge conflict${attempt > 1 ? ` (attempt ${attempt}: conflict markers were left behind)` : ""}`,
    `Story ${story.id} (${story.title}) was built at the same time as ${sides}, and merging it into the project conflicted in: ${files.join(", ")}.`,
    "In each file, the part between `<<<<<<< merged stories` and `=======` is what is already merged; the part between `=======` and `>>>>>>> story " +
      `${story.id}\` is story ${story.id}'s. Edit each file so it does what both stories need, remove every conflict marker, run the tests, then hand off.`,
    shown,
  ].join("\n");
}

// The opening of a conflicted file, read as read_file would (a story may have committed a link there).
function head(root: string, rel: string): string {
  const read = readProjectText(root, rel, 16 * 1024);
  if (!read.ok) return read.missing ? "(the file is gone)" : `(not shown: ${read.reason})`;
  const text = read.text;
  return text.length > 4000 || read.truncated ? `${text.slice(0, 4000)}\n… (cut; read the file for the rest)` : text;
}
