import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { yoloEventSchema } from "../../src/events/schema.js";
import { analystDone, architectDone, BAD_ADD, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { nodesStarted, readThread, routes, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type MockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(script: Parameters<typeof director>[0]) {
  const project = makeProject();
  const dir = director(script);
  const mock: MockOpenAI = await startMockOpenAI(dir);
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock, dir };
}

// The fixture's test script as the configured gate, where the case is about routing and not the gate's command: npm's
// own start costs about 0.5 s of CPU a gate run. The first case and the fix loop keep the detected `npm test`.
const NODE_TEST = { gates: [{ name: "test", command: "node --test test/" }] };

describe("the compiled pipeline on a real SQLite file, real gates and the real OpenAI client", () => {
  it("skips architect when pm says no architecture is needed, and passes on a green gate", async () => {
    const { root, mock, dir } = await setup({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "t-noarch", requirement: "Add an add(a, b) function to src/add.js" });

    expect(result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(events)).toEqual(["analyst", "pm", "dev", "tea"]);
    expect(routes(events)).toEqual(["analyst→pm", "pm→dev", "dev→tea", "tea→end"]);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    // The baseline ran first (before any agent), red: src/add.js did not exist yet.
    const baseline = events.find((e) => e.type === "gate.result" && e.gate.baseline === true);
    expect(baseline?.type === "gate.result" && baseline.gate).toMatchObject({ name: "test", passed: false, attempt: 0 });
    const gate = events.find((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(gate?.type === "gate.result" && gate.gate).toMatchObject({ name: "test", passed: true, exitCode: 0, passedCount: 2, failedCount: 0 });
    for (const e of events) expect(yoloEventSchema.safeParse(e).success).toBe(true);
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
    // The real client streamed: every request asked for SSE and usage.
    expect(mock.requests.every((r) => r.body.stream === true)).toBe(true);
  });

  it("runs architect when pm says architecture is needed", async () => {
    const { root, mock } = await setup({
      analyst: [analystDone],
      pm: [pmDone(true)],
      architect: [architectDone],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "t-arch", requirement: "Add add()", config: NODE_TEST });
    expect(result.status).toBe("passed");
    expect(nodesStarted(events)).toEqual(["analyst", "pm", "architect", "dev", "tea"]);
    // dev's prompt carries the architect's decision.
    const devRequest = mock.requests.find((r) => JSON.stringify(r.messages[0]).includes("You are the dev agent"));
    expect(JSON.stringify(devRequest?.messages)).toContain("ES module src/add.js exporting add");
  });

  it("sends a red gate back to dev with the failing output, then passes after the fix", async () => {
    const { root, mock } = await setup({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...devWrites(BAD_ADD), ...devWrites(GOOD_ADD)],
      // tea claims PASS on a red gate: the gate still blocks.
      tea: [teaSays("PASS"), teaSays("PASS")],
    });
    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "t-fix", requirement: "Add add()" });
    expect(result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(events)).toEqual(["analyst", "pm", "dev", "tea", "dev", "tea"]);
    expect(routes(events)).toContain("tea→dev");
    const gates = events.flatMap((e) => (e.type === "gate.result" && !e.gate.baseline ? [e.gate] : []));
    expect(gates.map((g) => g.passed)).toEqual([false, true]);
    expect(gates[0].failedCount).toBe(2);
    // Each gate says it has started (its command and attempt) just before its result, so a slow suite shows as running.
    const gateEvents = events.filter((e) => (e.type === "gate.started" && !e.baseline) || (e.type === "gate.result" && !e.gate.baseline));
    expect(
      gateEvents.map((e) =>
        e.type === "gate.started"
          ? `started ${e.name} ${e.command} #${e.attempt}`
          : e.type === "gate.result"
            ? `result ${e.gate.name} #${e.gate.attempt}`
            : e.type,
      ),
    ).toEqual([`started test ${gates[0].command} #1`, "result test #1", `started test ${gates[1].command} #2`, "result test #2"]);
    // The tea that sent the change back says it blocked it; the one that let it through does not.
    const teaDone = events.flatMap((e) => (e.type === "node.completed" && e.node === "tea" ? [e.blocked ?? false] : []));
    expect(teaDone).toEqual([true, false]);
    // The second dev run saw the failing test output in its prompt.
    const devRequests = mock.requests.filter((r) => JSON.stringify(r.messages[0]).includes("You are the dev agent"));
    const fixPrompt = JSON.stringify(devRequests[2].messages);
    expect(fixPrompt).toContain("Fix attempt 1 of 3");
    expect(fixPrompt).toContain("adds two numbers");

    // Read back from the checkpoints (as `yolo show` does): the delta-stored gate history replays whole.
    const { values } = await readThread(root, "t-fix");
    expect(values.gateHistory.map((g) => [g.attempt, g.passed])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(values.fixAttempts).toBe(1);
  });

  it("ends as failed (exit 1) when the gate is still red after the fix attempts", async () => {
    const { mock, root } = await setup({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [...devWrites(BAD_ADD), ...devWrites(BAD_ADD), ...devWrites(BAD_ADD)],
      tea: [teaSays("FAIL", ["wrong sign"]), teaSays("FAIL"), teaSays("FAIL")],
    });
    const { result, events } = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "t-limit",
      requirement: "Add add()",
      config: { ...NODE_TEST, maxFixAttempts: 2 },
    });
    expect(result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(nodesStarted(events).filter((n) => n === "dev")).toHaveLength(3);
    expect(routes(events).slice(-1)).toEqual(["tea→end"]);
    const done = events.at(-1);
    expect(done?.type === "run.completed" && done.reason).toMatch(/still failing after 2 fix attempts/);
  });

  it("pauses on an escalation (exit 3) and delivers the answer to the agent that asked", async () => {
    const { root, mock } = await setup({
      analyst: [{ content: "", toolCalls: [{ name: "handoff", args: { escalate_to_human: true, question: "Integers only, or floats too?" } }] }, analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    const first = await runEngine({ root, baseURL: mock.url, threadId: "t-esc", requirement: "Add add()", config: NODE_TEST });
    expect(first.result).toMatchObject({ status: "waiting", exitCode: 3, question: "Integers only, or floats too?" });
    expect(first.result.resumeCommand).toBe('yolo resume t-esc --answer "<your answer>"');
    expect(routes(first.events)).toEqual(["analyst→escalate"]);

    const second = await runEngine({ root, baseURL: mock.url, threadId: "t-esc", answer: "Floats too", config: NODE_TEST });
    expect(second.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(second.events)).toEqual(["analyst", "pm", "dev", "tea"]);
    const analystAgain = mock.requests.filter((r) => JSON.stringify(r.messages[0]).includes("You are the analyst agent"))[1];
    expect(JSON.stringify(analystAgain.messages)).toContain("Floats too");
  });
});
