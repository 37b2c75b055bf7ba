import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { git, gitOk } from "./git.js";
import { treeChanges } from "./work-tree-hash.js";

/** A throwaway copy of the project for the baseline's tests, and how to remove it. */
export interface CleanCopy {
  /** The project root inside the copy (the project may be a sub-folder of its repository). */
  root: string;
  /** The project's ignored top-level folders (node_modules, .venv…) the copy links to: bound read-only in a sandbox. */
  linked: string[];
  /** Project-relative test-side paths set back to the baseline's version (or left out: files the baseline did not have). */
  reverted: string[];
  remove(): void;
}

/** What to build: the baseline's tree, the tree now, and which changed paths are the tests' side. */
export interface CleanCopyPlan {
  root: string;
  baseTree: string;
  nowTree: string;
  /** Whether a changed project-relative path belongs to the tests (it takes the baseline's version). */
  testSide(rel: string): boolean;
  /** Ignored files an agent wrote: in the trees already, never linked in from the project (a test-side one left out stays out). */
  agentIgnored?: readonly string[];
}

/** Top-level names never linked into the copy: git's and yolo's folders, and caches a gate run writes. */
const NOT_LINKED = new Set([".git", ".yolo", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".nyc_output", "coverage"]);

/**
 * SWE-bench's check, for yolo's gates: the tree now with every test-side path the agent changed set back to the
 * baseline's version, checked out into a temporary folder. The baseline's tests run there, beside the agent's change
 * to the code, with none of the agent's test files, plugins or helpers. Null when the agent changed no test-side path.
 * Ignored top-level folders (installed dependencies) are links to the project's own.
 */
export async function makeCleanCopy(plan: CleanCopyPlan): Promise<CleanCopy | null> {
  const reverted = (await treeChanges(plan.root, plan.baseTree, plan.nowTree)).filter(plan.testSide);
  if (!reverted.length) return null;
  const top = (await gitOk(plan.root, ["rev-parse", "--show-toplevel"])).trim();
  const prefix = (await gitOk(plan.root, ["rev-parse", "--show-prefix"])).trim();
  const dir = mkdtempSync(join(tmpdir(), "yolo-baseline-tests-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const env = { GIT_INDEX_FILE: join(dir, ".index") };
    const staged = (args: string[]) => gitOk(top, ["-c", "core.splitIndex=false", ...args], env);
    await staged(["read-tree", plan.nowTree]);
    const full = reverted.map((rel) => posix.join(prefix, rel));
    const before = await staged(["ls-tree", "-r", "-z", "--full-tree", plan.baseTree, "--", ...full.map(literal)]);
    const kept = new Map(
      before
        .split("\0")
        .filter(Boolean)
        .map((line) => [line.slice(line.indexOf("\t") + 1), line.slice(0, line.indexOf("\t")).split(" ")]),
    );
    // The baseline's version where it had one (`mode type object` from ls-tree); out of the index where it had none.
    const restore = full.filter((path) => kept.has(path)).flatMap((path) => ["--cacheinfo", `${kept.get(path)![0]},${kept.get(path)![2]},${path}`]);
    const drop = full.filter((path) => !kept.has(path));
    if (restore.length) await staged(["update-index", "--add", ...restore]);
    if (drop.length) await staged(["update-index", "--force-remove", "--", ...drop]);
    const work = join(dir, "work");
    await staged(["checkout-index", "-a", "-f", `--prefix=${work}/`]);
    rmSync(env.GIT_INDEX_FILE, { force: true });
    const root = join(work, prefix);
    return { root, linked: await linkIgnored(plan.root, root, plan.agentIgnored ?? []), reverted, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

// A path taken as written (no glob, no pathspec magic): it came from git's own listing.
const literal = (path: string) => `:(literal)${path}`;

// Links each folder or file of the project that git ignores (node_modules and .venv at any depth, build output) into
// the copy where its parent folder exists there; a path the copy lacks for another reason (a test file set back to
// none) is not ignored, so it stays out, and neither is a path holding a file an agent wrote there (the trees have
// those: one left out is a test-side file set back). Git lists the top-most ignored paths only (a folder, not its files).
async function linkIgnored(from: string, to: string, agentIgnored: readonly string[]): Promise<string[]> {
  const said = await git(from, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", "."]);
  const linked: string[] = [];
  for (const listed of said.stdout.split("\0").filter(Boolean)) {
    const rel = listed.replace(/\/$/, "");
    if (rel.split("/").some((part) => NOT_LINKED.has(part))) continue;
    if (agentIgnored.some((p) => p === rel || p.startsWith(`${rel}/`))) continue;
    const at = join(to, rel);
    if (existsSync(at) || !existsSync(dirname(at))) continue;
    let target: string;
    try {
      target = realpathSync(join(from, rel));
    } catch {
      continue; // a dangling link: nothing to link to
    }
    symlinkSync(target, at);
    linked.push(target);
    if (linked.length >= MAX_LINKS) break;
  }
  return linked;
}

/** Ignored paths linked at most (each is also a read-only bind in the sandbox). */
const MAX_LINKS = 200;
