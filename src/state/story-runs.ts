import type { Usage } from "../events/schema.js";

/**
 * The contract between the story fan-out (engine), the views and the reports (docs/stories.md). A story's id is pm's
 * `id` when it gave one, else `s<N>` by position (1-based); ids are stable for the thread's life.
 */
export type StoryStatus =
  /** Waiting for its dependencies, or for a free slot under `parallel`. */
  | "pending"
  /** A dev run is working on it in its worktree. */
  | "running"
  /** Its dev handed off; its branch has a commit and waits to be merged. */
  | "done"
  /** Its branch is merged into the thread's working tree (after a conflict resolution where there was one). */
  | "merged"
  /** Its dev escalated, hit a limit or failed; the thread stops or waits with it. */
  | "failed";

export interface StoryRun {
  id: string;
  title: string;
  /** Ids of the stories it waits for (pm's `depends_on`; absent in old handoffs means "every story before it"). */
  dependsOn: string[];
  status: StoryStatus;
  /** `yolo/stories/<thread>/<story>` (git keeps no branch below `--branch`'s `yolo/<thread>`). */
  branch: string;
  /** The worktree's absolute path while it exists; null once cleaned up. */
  worktree: string | null;
  /** Project-relative files the story changed, from git (not from the model's handoff). */
  filesChanged: string[];
  usage: Usage;
  /** dev's handoff summary, or why the story failed. */
  summary: string | null;
  /** Files that conflicted when its branch was merged (resolved by a dev run), empty when it merged cleanly. */
  conflicts: string[];
}

/** Story runs by id; an update carries only the stories it changes, each merged field by field into the old. */
export function mergeStoryRuns(old: Record<string, StoryRun>, next: Record<string, Partial<StoryRun> & { id: string }>): Record<string, StoryRun> {
  const merged = { ...old };
  for (const [id, run] of Object.entries(next)) merged[id] = { ...(merged[id] as StoryRun), ...run } as StoryRun;
  return merged;
}
