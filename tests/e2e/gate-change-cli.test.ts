import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add an add(a, b) function to src/add.js";
const CHEAT = [
  call("write_file", { path: "src/add.js", content: BAD_ADD }),
  call("write_file", { path: "package.json", content: JSON.stringify({ name: "demo", type: "module", scripts: { test: "exit 0" } }) }),
  handoff({ summary: "done", files_changed: ["src/add.js", "package.json"] }),
];
const cheat = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: CHEAT, tea: [teaSays("PASS"), teaSays("PASS")] });

describe.concurrent("the built binary: a gate an agent rewrote", { timeout: 240_000 }, () => {
  it('--ci: dev sets "test": "exit 0" → exit 3, the change named in the events, the plain output and yolo show; --approve then proceeds', async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, cheat());
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(3);
    const events = parseEvents(r.stdout);
    const ask = events.find((e) => e.type === "interrupt");
    expect(ask).toMatchObject({ kind: "approval", node: "tea" });
    expect(ask?.type === "interrupt" && ask.artifact).toContain('package.json scripts.test changed from "node --test test/" to "exit 0"');
    expect(events.find((e) => e.type === "gate.started")).toMatchObject({ baseline: true, attempt: 0 });
    const thread = threadIdFrom(r.stdout);

    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.exitCode, describeResult(shown)).toBe(0);
    expect(shown.stdout).toMatch(/baseline/i);

    const resumed = await runYolo(["resume", thread, "--ci", "--no-tui", "--approve"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(resumed.stdout).toMatch(/gate change approved/i);
  });

  it("--answers approving the gate change proceeds unattended (exit 0)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, cheat());
    const answers = join(root, "..", `answers-${Date.now()}.yaml`);
    writeFileSync(answers, "- node: tea\n  question: gate\n  approve: true\n");
    onTestFinished(() => void (existsSync(answers) && writeFileSync(answers, "")));
    const r = await runYolo(["run", "--ci", "--json", "--answers", answers, REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const events = parseEvents(r.stdout);
    const gate = events.find((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(gate?.type === "gate.result" && gate.gate).toMatchObject({ gateChangeApproved: true, blocking: false });
    // Answered in the same process: one leg, whose one run.completed carries the process's exit code.
    expect(events.filter((e) => e.type === "run.started")).toHaveLength(1);
    const ends = events.filter((e) => e.type === "run.completed");
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ status: "passed", exitCode: 0 });
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(events.find((e) => e.type === "interrupt")).toMatchObject({ kind: "approval", node: "tea" });

    // The plain output never says the run waited before it went on.
    const plainRoot = project(onTestFinished);
    const plainMock = await mockWith(onTestFinished, cheat());
    const plain = await runYolo(["run", "--ci", "--no-tui", "--answers", answers, REQ], { cwd: plainRoot, baseURL: plainMock.url });
    expect(plain.exitCode, describeResult(plain)).toBe(0);
    expect(plain.stdout).not.toMatch(/waiting \(exit 3\)/);
    expect(plain.stdout).toMatch(/passed \(exit 0\)/);
  });

  it("--require-gate on a project with no test script: exit 2 before anything runs", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "package.json": JSON.stringify({ name: "demo", scripts: { test: 'echo "Error: no test specified" && exit 1' } }) });
    const mock = await mockWith(onTestFinished, director({}));
    const r = await runYolo(["run", "--ci", "--no-tui", "--require-gate", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/No gate: package\.json's test script is npm's placeholder/);
    expect(mock.requests).toHaveLength(0);
  });

  it("no gate: the plain output warns at the start and ends 'completed without a gate'", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "package.json": JSON.stringify({ name: "demo" }) });
    const mock = await mockWith(
      onTestFinished,
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: CHEAT.slice(0, 1).concat(CHEAT.slice(2)), tea: [teaSays("PASS")] }),
    );
    const r = await runYolo(["run", "--ci", "--no-tui", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const all = r.stdout + r.stderr;
    expect(all).toMatch(/No gate: package\.json has no test script/);
    expect(all).toMatch(/completed without a gate/);
    expect(all).not.toMatch(/gate passed/);
  });
});
