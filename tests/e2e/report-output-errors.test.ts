import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const isRoot = process.getuid?.() === 0;

describe("yolo report --output to a path that cannot take the file: a clear error naming it, no stack trace", { timeout: 240_000 }, () => {
  it("a folder that cannot be created, a path through a file, a folder, an I/O error; a missing folder is created", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const run = await runYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url });
    const thread = threadIdFrom(run.stdout);
    mkdirSync(join(root, "out"));

    const cases: [string, number, RegExp][] = [
      ["/proc/x.md", 2, /^yolo: Cannot write --output \/proc\/x\.md: its folder does not exist and cannot be created there\. Nothing was written/],
      ["README.md/x.md", 2, new RegExp(`^yolo: Cannot write --output ${join(root, "README.md/x.md")}: a part of the path is a file, not a folder`)],
      ["out", 2, /: it is a folder\./],
      // The kernel refuses writes to this one with EIO: an I/O error, not a bad path.
      ["/proc/version", 70, /^yolo: Could not write --output \/proc\/version: .*check the disk/],
    ];
    for (const [output, code, message] of cases) {
      const r = await runYolo(["report", thread, "--output", output], { cwd: root });
      expect(r.exitCode, `${output}\n${describeResult(r)}`).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
    }
    const ok = await runYolo(["report", thread, "--output", "reports/new/summary.md"], { cwd: root });
    expect(ok.exitCode, describeResult(ok)).toBe(0);
    expect(readFileSync(join(root, "reports/new/summary.md"), "utf8")).toContain(thread);
  });

  it.skipIf(isRoot)("a read-only file: exit 2, permission denied, the file unchanged", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const thread = threadIdFrom((await runYolo(["run", "--json", "Add add"], { cwd: root, baseURL: mock.url })).stdout);
    writeFileSync(join(root, "locked.md"), "keep\n");
    chmodSync(join(root, "locked.md"), 0o444);
    const r = await runYolo(["report", thread, "--output", "locked.md"], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/locked\.md: permission denied/);
    expect(existsSync(join(root, "locked.md")) && readFileSync(join(root, "locked.md"), "utf8")).toBe("keep\n");
  });
});
