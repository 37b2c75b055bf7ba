import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// A committed .gitignore listing `.yolo/` (common): `--branch` runs and runs on a dirty tree after the first one used
// to exit 70 ("paths are ignored" from yolo's own `git add`).
describe("a .gitignore that lists .yolo/", { timeout: 240_000 }, () => {
  it("--branch commits, and a later run on the dirty tree works", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { ".gitignore": ".yolo/\nnode_modules\n" });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
    const script = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const first = await runYolo(["run", "--ci", "--branch", "Add add()"], { cwd: root, baseURL: (await mockWith(onTestFinished, script())).url });
    expect(first.exitCode, describeResult(first)).toBe(0);
    expect(git("show", "--name-only", "--format=", "HEAD").trim()).toBe("src/add.js");
    writeFileSync(join(root, "notes.md"), "uncommitted\n");
    const second = await runYolo(["run", "--ci", "Add add() again"], { cwd: root, baseURL: (await mockWith(onTestFinished, script())).url });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(git("status", "--porcelain")).not.toContain(".yolo");
  });
});
