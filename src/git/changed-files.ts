import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangeReader } from "../engine/deps.js";
import { gitOk, PROJECT_PATHS } from "./git.js";
import { EMPTY_TREE } from "./repo.js";

/**
 * Paths (relative to `root`) that differ between the thread's start — its start commit, or the snapshot of a dirty
 * tree (`refs/yolo/<thread>/start`) — and the work tree now: committed, staged, unstaged and untracked files, not
 * ignored ones nor `.yolo/`; a rename counts as both paths. Read in a throwaway index: the user's is untouched.
 */
export async function changedFiles(root: string, startCommit: string | null): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "yolo-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    if (startCommit) await gitOk(root, ["read-tree", startCommit], env);
    await gitOk(root, ["add", "-A", ...PROJECT_PATHS], env);
    const out = await gitOk(root, ["diff", "--cached", "--name-only", "-z", "--no-renames", "--relative", startCommit ?? EMPTY_TREE, ...PROJECT_PATHS], env);
    return out.split("\0").filter((p) => p !== "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The engine's view of a thread's change (see ChangeReader): git's answer, or why git could not give it. */
export function changeReader(root: string, startCommit: string | null): ChangeReader {
  return {
    changedFiles: async () => {
      try {
        return { ok: true, files: await changedFiles(root, startCommit) };
      } catch (error) {
        return { ok: false, note: (error as Error).message };
      }
    },
  };
}
