import { lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * Whether `root` or a folder above it holds a `.git` entry (a folder, or a file naming one). Git finds a work
 * tree's repository only through such an entry (its environment never names one: hardened.ts lets no GIT_DIR
 * through), so without one every git command on the work tree fails: answered by a few stat calls instead of git
 * processes. Asked afresh each time (a `git init` later counts).
 */
export function hasGitEntry(root: string): boolean {
  let dir = resolve(root);
  for (;;) {
    try {
      lstatSync(join(dir, ".git"));
      return true;
    } catch {
      // None here: the folder above.
    }
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
