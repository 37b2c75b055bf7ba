import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changedFiles } from "../../../src/git/changed-files.js";
import { headCommit, uncommittedChanges } from "../../../src/git/repo.js";
import { withStagedWorkTree } from "../../../src/git/staged-work-tree.js";
import { commitStory, ensureStoryWorktree } from "../../../src/engine/stories/worktree.js";
import { tempDir } from "../../helpers/per-test.js";

// A `.gitignore` listing `.yolo/` (and `node_modules`) is common. `git add` exits 1 ("paths are ignored") when a
// literal pathspec, even an excluding one, names such a folder: every snapshot, `--branch` commit and story commit
// must still work, and still leave yolo's folder and the linked dependencies out.

const gitIn = (root: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });

function ignoringRepo(onTestFinished: Parameters<typeof tempDir>[0]): string {
  const repo = tempDir(onTestFinished, "yolo-ignored-");
  gitIn(repo, "init", "-q");
  writeFileSync(join(repo, ".gitignore"), ".yolo/\nnode_modules\n");
  writeFileSync(join(repo, "a.txt"), "a\n");
  gitIn(repo, "add", "-A");
  gitIn(repo, "commit", "-qm", "init");
  mkdirSync(join(repo, ".yolo", "logs"), { recursive: true });
  writeFileSync(join(repo, ".yolo", "logs", "run.log"), "never staged\n");
  mkdirSync(join(repo, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(repo, "node_modules", "dep", "index.js"), "never staged\n");
  return repo;
}

describe("a .gitignore that lists .yolo/ and node_modules", () => {
  it("stages a dirty tree into a snapshot without .yolo/", async ({ onTestFinished }) => {
    const repo = ignoringRepo(onTestFinished);
    writeFileSync(join(repo, "b.txt"), "new\n");
    const listed = await withStagedWorkTree(repo, { base: await headCommit(repo) }, (staged) => staged(["ls-files"]));
    expect(listed.trim().split("\n")).toEqual([".gitignore", "a.txt", "b.txt"]);
    expect(await uncommittedChanges(repo)).toEqual(["?? b.txt"]);
    expect(await changedFiles(repo, await headCommit(repo))).toEqual(["b.txt"]);
  });

  it("also when .yolo is not ignored at all: its files stay out", async ({ onTestFinished }) => {
    const repo = ignoringRepo(onTestFinished);
    writeFileSync(join(repo, ".gitignore"), "node_modules\n");
    const listed = await withStagedWorkTree(repo, { base: null, index: null }, (staged) => staged(["ls-files"]));
    expect(listed.trim().split("\n")).toEqual([".gitignore", "a.txt"]);
    expect(await uncommittedChanges(repo)).toEqual([" M .gitignore"]);
  });

  it("commits a story's work in its worktree, leaving out .yolo/ and the linked node_modules", async ({ onTestFinished }) => {
    const repo = ignoringRepo(onTestFinished);
    const wt = await ensureStoryWorktree({ root: repo, stateDir: join(repo, ".yolo"), threadId: "t1", storyId: "s1" });
    writeFileSync(join(wt.root, "story.txt"), "story\n");
    mkdirSync(join(wt.root, ".yolo"), { recursive: true });
    writeFileSync(join(wt.root, ".yolo", "x"), "x\n");
    expect(await commitStory(repo, wt, "story s1")).toEqual(["story.txt"]);
    expect(gitIn(wt.root, "show", "--name-only", "--format=", "HEAD").trim()).toBe("story.txt");
  });
});
