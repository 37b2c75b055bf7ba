import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, type TestContext } from "vitest";
import type { YoloEvent } from "../../src/events/schema.js";
import { maskVolatile } from "../../src/llm/recording-match.js";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { project, tempDir } from "../helpers/per-test.js";
import { runShellLine, yoloShim } from "../helpers/shell.js";

type Finally = TestContext["onTestFinished"];
const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate in the runs whose printed commands are not read: recording and replay
// are not about npm's detection, and npm's own start is about 0.7 s of CPU a gate run. The detected npm test end to
// end: tests/e2e/run-exit-codes.test.ts, and the question-and-answer session below.
const GATE = ["--test-cmd", "node --test test/"];

const scratch = (onTestFinished: Finally): string => tempDir(onTestFinished, "yolo-session-");

/** Many failing tests: the red gate's output is far longer than the 2 KB tail that goes back into the prompts. */
const MANY_TESTS = {
  "test/many.test.js": `import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { add } from "../src/add.js";\n\n${Array.from(
    { length: 25 },
    (_, i) => `test("adds ${i} and 1", () => {\n  assert.equal(add(${i}, 1), ${i + 1});\n});\n`,
  ).join("\n")}`,
};

/** A run with a fix loop: the first change is red (the gate output, with paths and timings, goes back into prompts). */
const fixLoop = () =>
  director({
    analyst: [analystDone],
    pm: [pmDone(true)],
    architect: [call("handoff", { decisions: [{ title: "Module", decision: "ES module", rationale: "type: module" }] })],
    dev: [call("read_file", { path: "test/add.test.js" }), ...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
    tea: [teaSays("FAIL", ["subtracts"]), teaSays("PASS")],
  });

/** An event with what differs between two honest runs taken out: time, thread id, project root, gate timings. */
function comparable(e: YoloEvent, root: string): unknown {
  const { ts: _ts, thread, ...rest } = e;
  const text = JSON.stringify(rest).split(root).join("<root>").split(thread).join("<thread>");
  const body = JSON.parse(text) as Record<string, unknown>;
  if (body.type === "gate.result") {
    const gate = body.gate as Record<string, unknown>;
    // The tail is the last 2 KB of the output: where it starts moves with the durations inside it.
    body.gate = { ...gate, durationMs: 0, tail: maskVolatile(String(gate.tail)).split("\n").slice(-15) };
  }
  return body;
}

describe.concurrent("--record and --replay", { timeout: 240_000 }, () => {
  it("a replay in another copy of the project, with no model configured, writes the same files and emits the same events", async ({
    expect,
    onTestFinished,
  }) => {
    const dir = scratch(onTestFinished);
    const session = join(dir, "session.jsonl");
    const recordedIn = project(onTestFinished, MANY_TESTS);
    const mock = await startMockOpenAI(fixLoop());
    onTestFinished(() => mock.close());
    const recorded = await runYolo(["run", ...GATE, "--ci", "--json", "--record", session, REQ], { cwd: recordedIn, baseURL: mock.url });
    expect(recorded.exitCode, describeResult(recorded)).toBe(0);
    const lines = readFileSync(session, "utf8").trim().split("\n");
    expect(lines).toHaveLength(mock.requests.length);
    expect(readFileSync(session, "utf8")).not.toContain(recordedIn);
    const red = parseEvents(recorded.stdout).find((e) => e.type === "gate.result" && !e.gate.passed && !e.gate.baseline);
    expect(red?.type === "gate.result" && readFileSync(join(recordedIn, red.gate.logFile!), "utf8").length).toBeGreaterThan(4000);

    const replayedIn = project(onTestFinished, MANY_TESTS);
    const replayed = await runYolo(["run", ...GATE, "--ci", "--json", "--replay", session, REQ], { cwd: replayedIn });
    expect(replayed.exitCode, describeResult(replayed)).toBe(0);
    expect(readFileSync(join(replayedIn, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(readFileSync(join(replayedIn, "src/add.js"), "utf8")).toBe(readFileSync(join(recordedIn, "src/add.js"), "utf8"));

    const a = parseEvents(recorded.stdout);
    const b = parseEvents(replayed.stdout);
    expect(a.map((e) => e.type)).toContain("gate.result");
    // The baseline runs beside analyst and pm, so its two events may fall anywhere among theirs: each stream is compared in its own order.
    const ofBaseline = (e: (typeof a)[number]) => "node" in e && e.node === "gate_baseline";
    const same = (events: typeof a, root: string, baseline: boolean) => events.filter((e) => ofBaseline(e) === baseline).map((e) => comparable(e, root));
    expect(same(b, replayedIn, false)).toEqual(same(a, recordedIn, false));
    expect(same(b, replayedIn, true)).toEqual(same(a, recordedIn, true));
    expect(same(a, recordedIn, true)).toHaveLength(2);
  });

  it("a request the recording does not hold stops the run with exit 5, naming the agent and the first difference", async ({ expect, onTestFinished }) => {
    const dir = scratch(onTestFinished);
    const session = join(dir, "session.jsonl");
    const mock = await startMockOpenAI(fixLoop());
    onTestFinished(() => mock.close());
    const persona = (text: string) => `---\nname: Developer\ndescription: writes code\ntools: [read_file, write_file, edit_file, list_files]\n---\n${text}\n`;
    const recordedIn = project(onTestFinished, { "agents/dev.md": persona("You write small changes.") });
    const recorded = await runYolo(["run", ...GATE, "--ci", "--json", "--record", session, REQ], { cwd: recordedIn, baseURL: mock.url });
    expect(recorded.exitCode, describeResult(recorded)).toBe(0);

    // The same project, but the team has changed the dev agent's persona since the recording.
    const changed = project(onTestFinished, { "agents/dev.md": persona("You write small, careful changes.") });
    const r = await runYolo(["run", ...GATE, "--ci", "--json", "--replay", session, REQ], { cwd: changed });
    expect(r.exitCode, describeResult(r)).toBe(5);
    const done = parseEvents(r.stdout).at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "provider_error", exitCode: 5 });
    const reason = done?.type === "run.completed" ? done.reason : "";
    expect(reason).toMatch(/^replay mismatch: the dev agent's request \(model call 4 of this run\) is not in the recorded session/);
    expect(reason).toMatch(
      /first difference: messages\[\d\] \(system\)\.content differs at character \d+: recorded .*, now .*You write small, careful changes/,
    );
    expect(r.stderr).toContain("replay mismatch: the dev agent's request");
    // The agents before dev were served from the recording; nothing was written.
    expect(
      parseEvents(r.stdout)
        .filter((e) => e.type === "node.completed")
        .map((e) => (e as { node: string }).node),
    ).toEqual(["analyst", "pm", "architect"]);
    expect(existsSync(join(changed, "src/add.js"))).toBe(false);
  });

  it("a session recorded across a question and its answer replays across the printed resume commands", async ({ expect, onTestFinished }) => {
    const dir = scratch(onTestFinished);
    const session = join(dir, "with a space", "session.jsonl");
    mkdirSync(join(dir, "with a space"));
    const question = "Integers only, or floats too?";
    const mock = await startMockOpenAI(
      director({
        analyst: [call("handoff", { escalate_to_human: true, question }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    onTestFinished(() => mock.close());
    const shim = yoloShim();
    onTestFinished(shim.cleanup);
    const answer = (command: string) => command.replace("<your answer>", "Floats too");

    // Record: the run stops on the question; its printed resume command goes on recording into the same file.
    const recordedIn = project(onTestFinished);
    const first = await runYolo(["run", "--ci", "--json", "--record", session, REQ], { cwd: recordedIn, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const recordResume = (parseEvents(first.stdout).at(-1) as { resumeCommand: string }).resumeCommand;
    expect(recordResume).toBe(`yolo resume ${threadIdFrom(first.stdout)} --record '${session}' --answer "<your answer>"`);
    const second = await runShellLine(`${answer(recordResume)} --ci`, shim.dir, { cwd: recordedIn, baseURL: mock.url });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);
    expect(readFileSync(session, "utf8").trim().split("\n")).toHaveLength(6);

    // Replay, offline: the same question, then the printed resume command (with --replay) finishes the thread.
    const replayedIn = project(onTestFinished);
    const third = await runYolo(["run", "--ci", "--replay", session, REQ], { cwd: replayedIn });
    expect(third.exitCode, describeResult(third)).toBe(3);
    expect(third.stdout).toContain(question);
    const replayResume = /resume: (yolo resume .*)$/m.exec(third.stdout)?.[1] ?? "";
    expect(replayResume).toMatch(/^yolo resume [a-z0-9]{8} --replay '.*\/with a space\/session\.jsonl' --answer "<your answer>"$/);
    const fourth = await runShellLine(answer(replayResume), shim.dir, { cwd: replayedIn, env: { CI: "1" } });
    expect(fourth.exitCode, describeResult(fourth)).toBe(0);
    expect(readFileSync(join(replayedIn, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(mock.requests).toHaveLength(6);
  });

  it("refuses --record with --replay, and an unreadable session, with exit 2 before anything is created", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const both = await runYolo(["run", "--record", "a.jsonl", "--replay", "b.jsonl", REQ], { cwd: root });
    expect(both.exitCode, describeResult(both)).toBe(2);
    expect(both.stderr).toContain("--record and --replay exclude each other");
    writeFileSync(join(root, "bad.jsonl"), "not json\n");
    const bad = await runYolo(["run", "--replay", "bad.jsonl", REQ], { cwd: root });
    expect(bad.exitCode, describeResult(bad)).toBe(2);
    expect(bad.stderr).toMatch(/bad\.jsonl is not a usable yolo session:\n {2}- line 1: not JSON/);
    expect(existsSync(join(root, ".yolo"))).toBe(false);
  });
});
