import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { git, gitOk } from "../../git/git.js";

/**
 * Merges a story's change (its branch's tip, checked out in its worktree at `storyRoot`, against the commit it
 * started from) into the thread's working tree,
 * file by file with git's three-way merge: the tree's HEAD, index and branch are untouched, so the same code serves
 * a thread with `--branch` and one without. Safe to repeat (a merge step run again after a kill): a file that
 * already holds the story's version is left as it is.
 */
export async function mergeStory(root: string, storyRoot: string, commits: { base: string; tip: string }, labels: { ours: string; theirs: string }): Promise<{ changed: string[]; conflicts: string[] }> {
  const status = await gitOk(root, ["diff", "--name-status", "--no-renames", "--relative", commits.base, commits.tip, "--", "."]);
  const changed: string[] = [];
  const conflicts: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "yolo-merge-"));
  try {
    for (const line of status.split("\n").filter(Boolean)) {
      const [kind, path] = line.split("\t");
      const target = inside(root, path);
      const ours = existsSync(target) ? readFileSync(target) : null;
      const base = kind === "A" ? null : await blob(root, commits.base, path);
      // The story's side is read from its worktree (committed at the tip): bytes as they are, binary files included.
      const theirs = kind === "D" ? null : readFileSync(inside(storyRoot, path));
      if (same(ours, theirs)) continue;
      changed.push(path);
      if (same(ours, base)) {
        write(target, theirs);
        continue;
      }
      // Both sides changed the file: git's merge of the texts, markers where they meet.
      if (ours === null || theirs === null || isBinary(ours) || isBinary(theirs) || (base !== null && isBinary(base))) {
        conflicts.push(path);
        continue;
      }
      const files = ["ours", "base", "theirs"].map((n) => join(scratch, n));
      writeFileSync(files[0], ours);
      writeFileSync(files[1], base ?? "");
      writeFileSync(files[2], theirs);
      const merged = await git(root, ["merge-file", "-p", "-L", labels.ours, "-L", "base", "-L", labels.theirs, ...files]);
      if (merged.exitCode < 0 || merged.exitCode > 127) throw new Error(`git merge-file failed on ${path}: ${merged.stderr.trim()}`);
      writeFileSync(target, merged.stdout);
      if (merged.exitCode > 0) conflicts.push(path);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { changed, conflicts };
}

/** Conflict markers git writes, at the start of a line. */
const MARKER = /^(<{7}|>{7})( |$)|^={7}$/m;

/** The files (project-relative) that still hold conflict markers. */
export function filesWithMarkers(root: string, files: readonly string[]): string[] {
  return files.filter((f) => {
    const path = inside(root, f);
    return existsSync(path) && MARKER.test(readFileSync(path, "latin1"));
  });
}

/** A file of the story as it was at `commit`, or null when it did not exist there. */
async function blob(root: string, commit: string, path: string): Promise<Buffer | null> {
  const r = await git(root, ["cat-file", "-e", `${commit}:./${path}`]);
  if (r.exitCode !== 0) return null;
  // Text as git prints it: a binary base never equals the tree's bytes, so it counts as a conflict (the safe side).
  const out = await gitOk(root, ["show", `${commit}:./${path}`]);
  return Buffer.from(out, "utf8");
}

// A path git reported, resolved in the thread's tree; never outside it (git's paths are relative, but check).
function inside(root: string, path: string): string {
  const abs = resolve(root, path);
  if (relative(root, abs).startsWith("..") || !abs.startsWith(root + sep)) throw new Error(`refusing to merge ${path}: outside the project`);
  return abs;
}

function write(target: string, content: Buffer | null): void {
  if (content === null) {
    if (existsSync(target)) unlinkSync(target);
    return;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
}

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
