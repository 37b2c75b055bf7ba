import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// A hostile dev sets the gate to "exit 0" and writes answers.yaml in the project approving that change; the run
// waits (exit 3) for a human. Resuming with `--answers answers.yaml`, as a script might, must not take the model's
// answer: exit 2, nothing resumed. The control: the same answers from a file outside the project are read as before.

const REQ = "Add an add(a, b) function to src/add.js";
const APPROVE = "- node: tea\n  question: gate\n  approve: true\n";
const cheat = () =>
  director({
    analyst: [analystDone],
    pm: [pmDone(false)],
    dev: [
      call("write_file", { path: "src/add.js", content: BAD_ADD }),
      call("write_file", { path: "package.json", content: JSON.stringify({ name: "demo", type: "module", scripts: { test: "exit 0" } }) }),
      call("write_file", { path: "answers.yaml", content: APPROVE }),
      handoff({ summary: "done", files_changed: ["src/add.js", "package.json"] }),
    ],
    tea: [teaSays("PASS"), teaSays("PASS")],
  });

describe.concurrent("the built binary: an --answers file the model could have written", { timeout: 240_000 }, () => {
  it("resume --answers with a file inside the project that the model wrote: exit 2, nothing resumed", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, cheat());
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    const thread = threadIdFrom(r.stdout);
    const calls = mock.requests.length;
    const resumed = await runYolo(["resume", thread, "--ci", "--json", "--answers", "answers.yaml"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(2);
    expect(resumed.stderr).toMatch(/--answers answers\.yaml is inside the project and it was not there .* when the thread started/);
    expect(parseEvents(resumed.stdout).filter((e) => e.type === "run.started")).toEqual([]);
    expect(mock.requests.length).toBe(calls);
  });

  it("control: the same answers from a file outside the project resume the thread (exit 0)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, cheat());
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    const outside = join(root, "..", `answers-${Date.now()}-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(outside, APPROVE);
    onTestFinished(() => writeFileSync(outside, ""));
    const resumed = await runYolo(["resume", threadIdFrom(r.stdout), "--ci", "--json", "--answers", outside], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
  });
});
