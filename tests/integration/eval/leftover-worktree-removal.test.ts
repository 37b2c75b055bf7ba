import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addWorktree, removeIfPresent } from "../../../src/eval/worktree.js";

// Before a task's agents work, the judged tree a killed eval may have left beside their worktree (it holds the hidden
// tests) is removed; where none was left, nothing is done. Real git.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-leftover-")));
  dirs.push(root);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root });
  git("init", "-q");
  writeFileSync(join(root, "a.txt"), "a\n");
  git("add", "-A");
  git("commit", "-qm", "init");
  return root;
}

const worktrees = (root: string) => execFileSync("git", ["worktree", "list", "--porcelain"], { cwd: root, encoding: "utf8" });

describe("removing a leftover judged tree", () => {
  it("removes a worktree that is there, folder and registration", async () => {
    const root = repo();
    const left = join(root, ".yolo", "t1.judge");
    await addWorktree(root, left, "HEAD");
    writeFileSync(join(left, "hidden.test.js"), "// a hidden test\n");
    expect(worktrees(root)).toContain(left);
    await removeIfPresent(root, left);
    expect(existsSync(left)).toBe(false);
    expect(worktrees(root)).not.toContain(left);
  });

  it("does nothing where none was left, and a worktree can then be added at that path", async () => {
    const root = repo();
    const path = join(root, ".yolo", "t2.judge");
    await removeIfPresent(root, path);
    expect(existsSync(path)).toBe(false);
    await addWorktree(root, path, "HEAD");
    expect(existsSync(join(path, "a.txt"))).toBe(true);
  });

  it("a path still registered to a worktree whose folder was deleted is taken by the next add", async () => {
    const root = repo();
    const path = join(root, ".yolo", "t3.judge");
    await addWorktree(root, path, "HEAD");
    rmSync(path, { recursive: true, force: true });
    await removeIfPresent(root, path);
    await addWorktree(root, path, "HEAD");
    expect(existsSync(join(path, "a.txt"))).toBe(true);
    expect(worktrees(root).split(path).length - 1).toBe(1);
  });
});
