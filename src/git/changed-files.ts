import { PROJECT_PATHS } from "./git.js";
import { EMPTY_TREE } from "./repo.js";
import { withStagedWorkTree } from "./staged-work-tree.js";

/**
 * Paths (relative to `root`) that differ between the thread's start — its start commit, or the snapshot of a dirty
 * tree (`refs/yolo/<thread>/start`) — and the work tree now: committed, staged, unstaged and untracked files, not
 * ignored ones nor `.yolo/`; a rename counts as both paths. Read in a throwaway index: the user's is untouched.
 */
export async function changedFiles(root: string, startCommit: string | null): Promise<string[]> {
  const out = await withStagedWorkTree(root, { base: startCommit }, (staged) =>
    staged(["diff", "--cached", "--name-only", "-z", "--no-renames", "--relative", startCommit ?? EMPTY_TREE, ...PROJECT_PATHS]),
  );
  return out.split("\0").filter((p) => p !== "");
}

/** Reads what a thread changed from version control, never from the model's own account of it. */
export interface ChangeReader {
  /** Paths relative to the project root changed since the thread started (work tree, untracked included); or why not known. */
  changedFiles(): Promise<{ ok: true; files: string[] } | { ok: false; note: string }>;
}

/** The engine's view of a thread's change (see ChangeReader): git's answer, or why git could not give it. */
export function changeReader(root: string, startCommit: string | null | Promise<string | null>): ChangeReader {
  return {
    changedFiles: async () => {
      try {
        return { ok: true, files: await changedFiles(root, await startCommit) };
      } catch (error) {
        return { ok: false, note: (error as Error).message };
      }
    },
  };
}
