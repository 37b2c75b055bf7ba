import { describe, expect, it } from "vitest";
import { yoloEventSchema } from "../../src/events/schema.js";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

// A run with one red gate and a fix, so every kind of progress event shows up.
async function setup() {
  const project = makeProject();
  const mock = await startMockOpenAI(
    director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
      tea: [teaSays("FAIL", ["subtracts"]), teaSays("PASS")],
    }),
  );
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock };
}

const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate: these cases are about how events are printed, not npm's
// detection, and npm's own start is about 0.7 s of CPU a gate run. The detected npm test end to end:
// tests/e2e/run-exit-codes.test.ts and tests/e2e/stories-kill-resume.test.ts.
const GATE = ["--test-cmd", "node --test test/"];

describe("--json prints one versioned, schema-valid event per line and nothing else", () => {
  it("every stdout line is a valid event of one thread, and the run's story is all there", async () => {
    const { root, mock } = await setup();
    const r = await runYolo(["run", ...GATE, "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);

    // Nothing but complete JSON lines: the output ends with a newline and has no blank or partial line.
    expect(r.stdout.endsWith("\n")).toBe(true);
    const lines = r.stdout.slice(0, -1).split("\n");
    const events = lines.map((line, i) => {
      let value: unknown;
      expect(() => (value = JSON.parse(line)), `line ${i + 1} is not JSON: ${line}`).not.toThrow();
      const parsed = yoloEventSchema.safeParse(value);
      expect(parsed.success, `line ${i + 1} is not a valid event: ${line}\n${parsed.error?.message}`).toBe(true);
      return parsed.data!;
    });

    const thread = events[0].thread;
    expect(thread).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const e of events) {
      expect(e.v).toBe(1);
      expect(e.thread).toBe(thread);
      expect(Number.isNaN(Date.parse(e.ts)), e.ts).toBe(false);
    }

    const types = events.map((e) => e.type);
    expect(types[0]).toBe("run.started");
    expect(types.at(-1)).toBe("run.completed");
    for (const t of ["node.started", "tool.called", "tool.result", "gate.started", "gate.result", "route", "node.completed", "usage"]) {
      expect(types, `no ${t} event`).toContain(t);
    }
    // Tokens are for the live view only.
    expect(types).not.toContain("token");
    // Ordering that consumers rely on: a node starts before its tools, a call comes before its result.
    expect(types.indexOf("node.started")).toBeLessThan(types.indexOf("tool.called"));
    for (const e of events) {
      if (e.type !== "tool.result") continue;
      const callAt = events.findIndex((c) => c.type === "tool.called" && c.callId === e.callId);
      expect(callAt, `tool.result ${e.callId} without its tool.called`).toBeGreaterThanOrEqual(0);
      expect(callAt).toBeLessThan(events.indexOf(e));
    }

    // A route states a decision taken when its node completed: it comes right after that node's node.completed
    // (nothing of the next node before it), and the next node to start is the one it names.
    const steps = events.filter((e) => e.type === "node.started" || e.type === "node.completed" || e.type === "route");
    const said = steps.map((e) => (e.type === "route" ? `route ${e.from}→${e.to}` : `${e.type} ${e.node}`));
    expect(said.filter((s) => s.startsWith("route"))).toEqual([
      "route analyst→pm",
      "route pm→dev",
      "route dev→tea",
      "route tea→dev",
      "route dev→tea",
      "route tea→end",
    ]);
    for (const [i, e] of steps.entries()) {
      if (e.type !== "route") continue;
      expect(said[i - 1], said.join("\n")).toBe(`node.completed ${e.from}`);
      if (e.to !== "end") expect(said[i + 1], said.join("\n")).toBe(`node.started ${e.to}`);
    }
    // Every gate.result comes after its gate.started, with no other gate of its node in between (the baseline runs
    // beside the agents that cannot write, so their events may come between its start and its result).
    for (const e of events) {
      if (e.type !== "gate.result") continue;
      const before = events.slice(0, events.indexOf(e)).findLast((x) => (x.type === "gate.started" || x.type === "gate.result") && x.node === e.node);
      expect(before).toMatchObject({ type: "gate.started", node: e.node, name: e.gate.name, command: e.gate.command, attempt: e.gate.attempt });
    }
    // The baseline (taken before dev wrote) comes first and says so.
    const gates = events.flatMap((e) => (e.type === "gate.result" ? [`${e.gate.baseline ? "baseline " : ""}${e.gate.passed}`] : []));
    expect(gates).toEqual(["baseline false", "false", "true"]);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0, resumeCommand: null, filesChanged: ["src/add.js"] });
    expect(done?.type === "run.completed" && done.usage.calls).toBe(mock.requests.length);
    expect(events.filter((e) => e.type === "run.completed")).toHaveLength(1);
    expect(r.stderr).toBe("");
  });

  it("plain mode (no --json, stdout a pipe) prints readable lines with no escape codes, even with colour forced", async () => {
    const { root, mock } = await setup();
    const r = await runYolo(["run", ...GATE, REQ], { cwd: root, baseURL: mock.url, env: { FORCE_COLOR: "1", TERM: "xterm-256color" } });
    expect(r.exitCode, describeResult(r)).toBe(0);

    expect(r.stdout).not.toContain("\x1b");
    expect(r.stderr).not.toContain("\x1b");
    expect(r.stdout).not.toMatch(/^\s*[{[]/m);
    expect(r.stdout).toMatch(/▶ analyst/);
    expect(r.stdout).toMatch(/run passed \(exit 0\)/);
  });
});
