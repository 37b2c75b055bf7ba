import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "vitest";
import { changedFiles, changeReader } from "../../../src/git/changed-files.js";
import { snapshotWorkTree } from "../../../src/git/repo.js";
import { project, tempDir } from "../../helpers/per-test.js";

const write = (root: string, rel: string, text = "x\n") => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};

describe("what a thread changed, read from git against its start", () => {
  it("committed, staged, unstaged and untracked files count; ignored files, .yolo/ and untouched ones do not; a rename is both paths", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, {
      ".gitignore": "node_modules/\n",
      "packages/a/index.js": "a\n",
      "packages/b/index.js": "b\n",
      "packages/c/old.js": "c\n",
    });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "ignore" });
    const start = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    write(root, "packages/a/index.js", "a2\n");
    git("commit", "-qam", "a commit on the thread's branch");
    write(root, "packages/b/index.js", "b2\n");
    git("add", "packages/b/index.js");
    write(root, "README.md", "# changed\n");
    write(root, "packages/d/new.js");
    renameSync(join(root, "packages/c/old.js"), join(root, "packages/c/new.js"));
    write(root, "node_modules/x/index.js");
    write(root, ".yolo/threads/t/log.txt");
    // What a gate's test run leaves behind in a project that does not ignore it is not the thread's change.
    write(root, "packages/a/__pycache__/index.cpython-312.pyc");
    write(root, ".pytest_cache/v/cache/lastfailed");
    write(root, ".coverage");
    expect((await changedFiles(root, start)).sort()).toEqual([
      "README.md",
      "packages/a/index.js",
      "packages/b/index.js",
      "packages/c/new.js",
      "packages/c/old.js",
      "packages/d/new.js",
    ]);
    // The user's index is untouched: only b is staged, as before.
    expect(execFileSync("git", ["diff", "--cached", "--name-only"], { cwd: root, encoding: "utf8" })).toBe("packages/b/index.js\n");
  });

  it("from a dirty start's snapshot, the user's own uncommitted edits are not the thread's change", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "packages/a/index.js": "a\n", "packages/b/index.js": "b\n" });
    write(root, "packages/a/index.js", "the user's edit\n");
    const snapshot = await snapshotWorkTree(root, "t1");
    write(root, "packages/b/index.js", "the thread's edit\n");
    expect(await changedFiles(root, snapshot)).toEqual(["packages/b/index.js"]);
  });

  it("the reader says why when git cannot answer (the start commit is gone), instead of pretending nothing changed", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const r = await changeReader(root, "0123456789012345678901234567890123456789").changedFiles();
    expect(r.ok).toBe(false);
    expect(!r.ok && r.note).toMatch(/git (-c \S+ )*read-tree/);
    const outside = tempDir(onTestFinished);
    rmSync(outside, { recursive: true, force: true });
    expect((await changeReader(outside, null).changedFiles()).ok).toBe(false);
  });
});
