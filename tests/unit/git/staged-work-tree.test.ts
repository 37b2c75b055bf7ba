import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexFile, type StagedGit, withStagedWorkTree } from "../../../src/git/staged-work-tree.js";
import { tempDir } from "../../helpers/per-test.js";

// The throwaway index a dirty tree's snapshot, `show --diff` and a monorepo's changed files are read from
// (src/git/staged-work-tree.ts): started from a copy of the user's index, it must hold exactly what one read afresh
// from HEAD holds, leave the user's index and git dir as they were, and fall back where git cannot use the copy.

const gitIn = (root: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const head = (root: string) => gitIn(root, "rev-parse", "HEAD").trim();
const writeTree = () => (staged: StagedGit) => staged(["write-tree"]);
// The tree from a copy of the user's index, and from a fresh index read from HEAD (index: null).
async function bothWays(root: string, base: string | null) {
  const copied = await withStagedWorkTree(root, { base }, writeTree());
  const fresh = await withStagedWorkTree(root, { base, index: null }, writeTree());
  return { copied: copied.trim(), fresh: fresh.trim() };
}

// A repository with every kind of change: staged, unstaged, untracked, deleted, and yolo's own folder.
function changedRepo(onTestFinished: Parameters<typeof tempDir>[0]): string {
  const repo = tempDir(onTestFinished, "yolo-staged-");
  gitIn(repo, "init", "-q");
  mkdirSync(join(repo, "sub"));
  for (const f of ["a.txt", "b.txt", "c.txt", "sub/d.txt"]) writeFileSync(join(repo, f), `${f}\n`);
  gitIn(repo, "add", "-A");
  gitIn(repo, "commit", "-qm", "init");
  writeFileSync(join(repo, "a.txt"), "staged\n");
  gitIn(repo, "add", "a.txt");
  writeFileSync(join(repo, "b.txt"), "unstaged\n");
  rmSync(join(repo, "c.txt"));
  writeFileSync(join(repo, "sub", "new.txt"), "untracked\n");
  mkdirSync(join(repo, ".yolo"));
  writeFileSync(join(repo, ".yolo", "state.txt"), "never staged\n");
  return repo;
}

describe("withStagedWorkTree", () => {
  it("stages the same tree from the user's index as from a fresh one, and leaves the user's index as it was", async ({ onTestFinished }) => {
    const repo = changedRepo(onTestFinished);
    const index = readFileSync(join(repo, ".git", "index"));
    const { copied, fresh } = await bothWays(repo, head(repo));
    expect(copied).toBe(fresh);
    const files = gitIn(repo, "ls-tree", "-r", "--name-only", copied).split("\n").filter(Boolean);
    expect(files).toEqual(["a.txt", "b.txt", "sub/d.txt", "sub/new.txt"]);
    expect(gitIn(repo, "show", `${copied}:b.txt`)).toBe("unstaged\n");
    expect(readFileSync(join(repo, ".git", "index")).equals(index)).toBe(true);
    expect(gitIn(repo, "status", "--porcelain")).toBe("M  a.txt\n M b.txt\n D c.txt\n?? .yolo/\n?? sub/new.txt\n");
  });

  it("finds the index of a worktree in its own git dir, and of a project in a sub-folder", async ({ onTestFinished }) => {
    const repo = changedRepo(onTestFinished);
    const sub = join(repo, "sub");
    expect(await indexFile(sub)).toBe(join(repo, ".git", "index"));
    // Under the project the same; outside it the copy holds what the user staged (a.txt), the fresh one HEAD's.
    const sides = await bothWays(sub, head(repo));
    expect(gitIn(repo, "rev-parse", `${sides.copied}:sub`)).toBe(gitIn(repo, "rev-parse", `${sides.fresh}:sub`));
    expect([gitIn(repo, "show", `${sides.copied}:a.txt`), gitIn(repo, "show", `${sides.fresh}:a.txt`)]).toEqual(["staged\n", "a.txt\n"]);
    const wt = join(tempDir(onTestFinished, "yolo-staged-wt-"), "wt");
    gitIn(repo, "worktree", "add", "-q", wt);
    writeFileSync(join(wt, "a.txt"), "in the worktree\n");
    expect(await indexFile(wt)).toBe(join(repo, ".git", "worktrees", "wt", "index"));
    const inWorktree = await bothWays(wt, head(wt));
    expect(inWorktree.copied).toBe(inWorktree.fresh);
    expect(gitIn(repo, "show", `${inWorktree.copied}:a.txt`)).toBe("in the worktree\n");
  });

  it("a split index: read from the git dir, written whole, nothing added to the git dir", async ({ onTestFinished }) => {
    const repo = changedRepo(onTestFinished);
    gitIn(repo, "config", "core.splitIndex", "true");
    gitIn(repo, "update-index", "--split-index");
    const before = readdirSync(join(repo, ".git")).sort();
    expect(before.some((f) => f.startsWith("sharedindex."))).toBe(true);
    const { copied, fresh } = await bothWays(repo, head(repo));
    expect(copied).toBe(fresh);
    expect(readdirSync(join(repo, ".git")).sort()).toEqual(before);
  });

  it("falls back to a fresh index where git cannot use the copy (an unfinished merge outside the project)", async ({ onTestFinished }) => {
    const repo = tempDir(onTestFinished, "yolo-staged-merge-");
    gitIn(repo, "init", "-q", "-b", "main");
    mkdirSync(join(repo, "app"));
    writeFileSync(join(repo, "outside.txt"), "base\n");
    writeFileSync(join(repo, "app", "x.txt"), "x\n");
    gitIn(repo, "add", "-A");
    gitIn(repo, "commit", "-qm", "base");
    gitIn(repo, "checkout", "-qb", "other");
    writeFileSync(join(repo, "outside.txt"), "other\n");
    gitIn(repo, "commit", "-qam", "other");
    gitIn(repo, "checkout", "-q", "main");
    writeFileSync(join(repo, "outside.txt"), "main\n");
    gitIn(repo, "commit", "-qam", "main");
    expect(() => gitIn(repo, "merge", "-q", "other")).toThrow();
    writeFileSync(join(repo, "app", "x.txt"), "changed\n");
    // The project is app/: the conflict outside it stays unmerged in the copy, and write-tree refuses it.
    const app = join(repo, "app");
    const { copied, fresh } = await bothWays(app, head(repo));
    expect(copied).toBe(fresh);
    expect(gitIn(repo, "show", `${copied}:app/x.txt`)).toBe("changed\n");
  });

  it("a repository with no index yet (nothing ever staged) stages from an empty one", async ({ onTestFinished }) => {
    const repo = tempDir(onTestFinished, "yolo-staged-none-");
    gitIn(repo, "init", "-q");
    writeFileSync(join(repo, "a.txt"), "a\n");
    const tree = await withStagedWorkTree(repo, { base: null }, writeTree());
    expect(gitIn(repo, "ls-tree", "-r", "--name-only", tree.trim())).toBe("a.txt\n");
  });
});
