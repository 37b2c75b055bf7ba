import { describe, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { mockWith, project } from "../helpers/per-test.js";

// The suite writes a cache file outside the project, as Go and Gradle do: the sandbox keeps it read-only.
const WRITES_OUTSIDE = `import { writeFileSync } from "node:fs";
writeFileSync("/var/tmp/yolo-env-failure-cache", "");
`;

describe.runIf(probeBwrap(process.env.PATH).available)("a gate the environment broke", { timeout: 240_000 }, () => {
  it("is worded as an environment failure with its line and the fix, ends the run (exit 2), and dev is never sent it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node cache.mjs && node --test test/" } }),
      "cache.mjs": WRITES_OUTSIDE,
    });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("failed because of its environment (a read-only file system), not because of the code");
    expect(r.stderr).toMatch(/EROFS: read-only file system, open '\/var\/tmp\/yolo-env-failure-cache'/);
    expect(r.stderr).toContain("Nothing was sent to dev");
    const baseline = parseEvents(r.stdout).find((e) => e.type === "gate.result" && e.gate.baseline);
    expect(baseline?.type === "gate.result" && baseline.gate.environment?.kind).toBe("read-only");
    expect(rolesOf(mock)).not.toContain("dev");

    // The environment fixed (the suite no longer writes outside the project), the thread resumes and passes.
    writeFileSync(join(root, "cache.mjs"), "");
    const resumed = await runYolo(["resume", threadIdFrom(r.stdout), "--json"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(rolesOf(mock)).toContain("dev");
  });
});
