import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneAt } from "../../../src/eval/worktree.js";

// A task's repository is checked out without reading its filter drivers first (it has none: a fetch copies no
// config). A filter the project defines in its own config must then still run nowhere: not in the task's checkout.

describe("a task repository's checkout", () => {
  it("runs none of the project's filter drivers and holds the committed text", async ({ onTestFinished }) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-filters-")));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
    git("init", "-q");
    const ran = join(root, "smudge-ran");
    git("config", "filter.evil.smudge", `touch ${ran}; cat`);
    git("config", "filter.evil.clean", "cat");
    writeFileSync(join(root, ".gitattributes"), "*.js filter=evil\n");
    writeFileSync(join(root, "a.js"), "export const a = 1;\n");
    git("add", "-A");
    git("commit", "-qm", "start");
    rmSync(ran, { force: true });
    const dir = join(root, ".yolo", "task");
    await cloneAt(root, dir, git("rev-parse", "HEAD"));
    expect(readFileSync(join(dir, "a.js"), "utf8")).toBe("export const a = 1;\n");
    expect(existsSync(ran)).toBe(false);
  });
});
