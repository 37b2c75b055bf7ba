import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";

describe("the built binary: a gate the user's configuration changed between legs", { timeout: 240_000 }, () => {
  it("the review says the configuration changed it, not an agent; approved, the gate result says so too", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    // The first leg stops after the baseline and dev's step: dev wrote src/add.js, no file that defines the gate.
    const first = await runYolo(["run", "--json", "--max-steps", "3", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(4);
    const baseline = parseEvents(first.stdout).find((e) => e.type === "gate.result" && e.gate.baseline);
    expect(baseline?.type === "gate.result" && baseline.gate.command, describeResult(first)).toBe("npm test");
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev"]);
    const thread = threadIdFrom(first.stdout);

    // The user configures another command for the same gate, then resumes.
    writeFileSync(join(root, "yolo.config.ts"), 'export default { gates: [{ name: "test", command: "node --test test/" }] };\n');
    expect((await runYolo(["config", "trust"], { cwd: root })).exitCode).toBe(0);
    const resumed = await runYolo(["resume", thread, "--ci", "--json"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(3);
    const ask = parseEvents(resumed.stdout).find((e) => e.type === "interrupt");
    expect(ask).toMatchObject({ kind: "approval", node: "tea" });
    const question = ask?.type === "interrupt" ? ask.question : "";
    expect(question).toMatch(
      /^The gate's configuration \(its command in yolo\.config\.ts or on the command line\) changed what defines the gate since the baseline/,
    );
    expect(ask?.type === "interrupt" && ask.artifact).toContain('gate test: command changed from "npm test" to "node --test test/"');
    expect(question).not.toMatch(/agent/);

    const approved = await runYolo(["resume", thread, "--ci", "--json", "--approve"], { cwd: root, baseURL: mock.url });
    expect(approved.exitCode, describeResult(approved)).toBe(0);
    const gate = parseEvents(approved.stdout).find((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(gate?.type === "gate.result" && gate.gate).toMatchObject({ gateChangeBy: "configuration", gateChangeApproved: true, passed: true });
  });
});
