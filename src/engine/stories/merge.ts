import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { git, gitOk } from "../../git/git.js";

/**
 * A story's change yolo will not write into the thread's tree: a path through a link out of the project, a folder in
 * the way. The story fails with this reason (its branch keeps its work); the thread is not stuck on it.
 */
export class MergeRefused extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`refusing to merge ${path}: ${why}`);
    this.name = "MergeRefused";
  }
}

/** A path's content as a merge sees it, never following a symbolic link (a link is its target, as git keeps it). */
type Entry = { kind: "file"; bytes: Buffer } | { kind: "link"; target: string } | { kind: "dir" } | null;

/**
 * Merges a story's change (its branch's tip, checked out in its worktree at `storyRoot`, against the commit it
 * started from) into the thread's working tree, file by file with git's three-way merge: the tree's HEAD, index and
 * branch are untouched, so the same code serves a thread with `--branch` and one without. Safe to repeat (a merge
 * step run again after a kill): a file that already holds the story's version is left as it is.
 */
export async function mergeStory(
  root: string,
  storyRoot: string,
  commits: { base: string; tip: string },
  labels: { ours: string; theirs: string },
): Promise<{ changed: string[]; conflicts: string[] }> {
  const status = await gitOk(root, ["diff", "--name-status", "--no-renames", "--relative", commits.base, commits.tip, "--", "."]);
  const changed: string[] = [];
  const conflicts: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "yolo-merge-"));
  try {
    for (const line of status.split("\n").filter(Boolean)) {
      const [kind, path] = line.split("\t");
      const target = inside(root, path);
      const write = (entry: Entry) => writeEntry(root, path, target, entry);
      const ours = entryAt(target);
      const base = kind === "A" ? null : await blob(root, commits.base, path);
      // The story's side is read from its worktree (committed at the tip): bytes as they are, binary files included.
      const theirs = kind === "D" ? null : entryAt(inside(storyRoot, path));
      if (same(ours, theirs)) continue;
      changed.push(path);
      if (same(ours, base)) {
        write(theirs);
        continue;
      }
      // Both sides changed the file: git's merge of the texts, markers where they meet; anything else is left to dev.
      if (
        ours?.kind !== "file" ||
        theirs?.kind !== "file" ||
        isBinary(ours.bytes) ||
        isBinary(theirs.bytes) ||
        (base?.kind === "file" && isBinary(base.bytes))
      ) {
        conflicts.push(path);
        continue;
      }
      const files = ["ours", "base", "theirs"].map((n) => join(scratch, n));
      writeFileSync(files[0], ours.bytes);
      writeFileSync(files[1], base?.kind === "file" ? base.bytes : "");
      writeFileSync(files[2], theirs.bytes);
      const merged = await git(root, ["merge-file", "-p", "-L", labels.ours, "-L", "base", "-L", labels.theirs, ...files]);
      if (merged.exitCode < 0 || merged.exitCode > 127) throw new Error(`git merge-file failed on ${path}: ${merged.stderr.trim()}`);
      write({ kind: "file", bytes: Buffer.from(merged.stdout) });
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
    const entry = entryAt(inside(root, f));
    return entry?.kind === "file" && MARKER.test(entry.bytes.toString("latin1"));
  });
}

/** A file of the story as it was at `commit` (text as git prints it), or null when it did not exist there. */
async function blob(root: string, commit: string, path: string): Promise<Entry> {
  const r = await git(root, ["cat-file", "-e", `${commit}:./${path}`]);
  if (r.exitCode !== 0) return null;
  const mode = (await gitOk(root, ["ls-tree", commit, "--", path])).split(" ")[0];
  const out = await gitOk(root, ["show", `${commit}:./${path}`]);
  // A binary base, decoded as text, never equals the tree's bytes: it counts as a conflict (the safe side).
  return mode === "120000" ? { kind: "link", target: out } : { kind: "file", bytes: Buffer.from(out, "utf8") };
}

function entryAt(path: string): Entry {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return null;
  }
  if (stat.isSymbolicLink()) return { kind: "link", target: readlinkSync(path) };
  if (stat.isDirectory()) return { kind: "dir" };
  return { kind: "file", bytes: readFileSync(path) };
}

// A path git reported, resolved in the tree; never outside it (git's paths are relative, but check).
function inside(root: string, path: string): string {
  const abs = resolve(root, path);
  if (relative(root, abs).startsWith("..") || !abs.startsWith(root + sep)) throw new MergeRefused(path, "outside the project");
  return abs;
}

/**
 * Writes (or deletes) a merged path, never through a symbolic link in a folder above it, nor over a folder. What the
 * tree will not take (a link in the way, a file where a folder should be) is a MergeRefused naming the path.
 */
function writeEntry(root: string, path: string, target: string, entry: Entry): void {
  try {
    mkdirSync(dirname(target), { recursive: true });
    const top = realpathSync(root);
    const parent = realpathSync(dirname(target));
    if (parent !== top && !parent.startsWith(top + sep)) throw new MergeRefused(path, "a folder above it links outside the project");
    const existing = entryAt(target);
    if (existing?.kind === "dir") throw new MergeRefused(path, "a folder is in the way");
    if (existing) unlinkSync(target);
    if (entry?.kind === "link") symlinkSync(entry.target, target);
    else if (entry?.kind === "file") writeFileSync(target, entry.bytes);
  } catch (error) {
    if (error instanceof MergeRefused) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string") throw new MergeRefused(path, `the tree does not take it (${code}: a link or a file is in the way)`);
    throw error;
  }
}

function same(a: Entry, b: Entry): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === "file" && b.kind === "file") return a.bytes.equals(b.bytes);
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  return a.kind === "dir" && b.kind === "dir";
}

function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
