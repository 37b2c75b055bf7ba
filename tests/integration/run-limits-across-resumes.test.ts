import { describe, expect, it } from "vitest";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { nodesStarted, readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

async function setup(script: Parameters<typeof director>[0]) {
  const project = makeProject();
  const dir = director(script);
  const mock = await startMockOpenAI(dir);
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock, dir };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("steps per run are counted in the thread's state, across resumes", { timeout: 60_000 }, () => {
  it("stops before the node past limits.maxSteps (exit 4), stops again on a resume with the same limit, and goes on with a raised one", async () => {
    const { root, mock, dir } = await setup({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const run = (maxSteps: number, requirement?: string) =>
      runEngine({ root, baseURL: mock.url, threadId: "t-steps", requirement, config: { limits: { maxSteps } } });

    const first = await run(2, "Add add()");
    expect(first.result).toMatchObject({ status: "limit", limit: "steps", exitCode: 4 });
    expect(first.result.reason).toContain("step limit: 2 of 2 steps, resumes included, before dev");
    expect(first.result.resumeCommand).toBe("yolo resume t-steps");
    expect(first.events.at(-1)).toMatchObject({ type: "run.completed", status: "limit", limit: "steps", exitCode: 4 });
    expect(dir.served).toEqual(["analyst", "pm"]);
    expect((await readThread(root, "t-steps")).values.steps).toBe(2);

    // LangGraph's own recursionLimit would start again from zero here; the thread's counter does not.
    const again = await run(2);
    expect(again.result).toMatchObject({ status: "limit", limit: "steps", exitCode: 4 });
    expect(nodesStarted(again.events)).toEqual([]);
    expect(dir.served).toEqual(["analyst", "pm"]);

    const third = await run(3);
    expect(third.result).toMatchObject({ status: "limit", limit: "steps", exitCode: 4 });
    expect(third.result.reason).toContain("3 of 3 steps, resumes included, before tea");
    expect(nodesStarted(third.events)).toEqual(["dev"]);

    const last = await run(10);
    expect(last.result).toMatchObject({ status: "passed", exitCode: 0, limit: null });
    expect(nodesStarted(last.events)).toEqual(["tea"]);
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
    expect((await readThread(root, "t-steps")).values.steps).toBe(4);
  });
});

describe("active wall time per run, across resumes", { timeout: 60_000 }, () => {
  it("lets the step running at the limit finish and save, then stops (exit 8); a resume with the same limit stops at once, a raised one finishes", async () => {
    // The analyst's answer takes 5.5 s, past a 5 s limit: its step still completes and is saved. (The limit leaves the
    // start before the analyst several seconds, so a loaded machine does not reach it before the analyst begins.)
    const { root, mock, dir } = await setup({
      analyst: [{ ...analystDone, delayMs: 5_500 }],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    const run = (maxTime: string, requirement?: string) =>
      runEngine({ root, baseURL: mock.url, threadId: "t-time", requirement, config: { limits: { maxTime } } });

    const first = await run("5s", "Add add()");
    expect(first.result).toMatchObject({ status: "limit", limit: "time", exitCode: 8 });
    expect(first.result.reason).toMatch(/time limit: \d+s of 5s active, resumes included, before pm/);
    expect(first.events.filter((e) => e.type === "node.completed").map((e) => (e.type === "node.completed" ? e.node : ""))).toEqual(["analyst"]);
    const saved = await readThread(root, "t-time");
    expect(saved.values.requirements).toContain("Provide `add(a, b)`");
    expect(saved.values.activeMs).toBeGreaterThanOrEqual(5_450);

    const again = await run("5s");
    expect(again.result).toMatchObject({ status: "limit", limit: "time", exitCode: 8 });
    expect(nodesStarted(again.events)).toEqual([]);
    expect(dir.served).toEqual(["analyst"]);

    const last = await run("1h");
    expect(last.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(last.events)).toEqual(["pm", "dev", "tea"]);
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
  });

  it("counts only active time: a thread waiting for a human (and the time between resumes) does not use it up", async () => {
    const { root, mock } = await setup({
      analyst: [call("handoff", { escalate_to_human: true, question: "Floats too?" }), analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    // A gate that takes no time, so the whole active time of the thread stays well under the 8 s limit (on a loaded
    // machine too), while the wait between the legs is longer than it.
    const config = { limits: { maxTime: "8s" }, gates: [{ name: "test", command: "true" }] };
    let legsMs = Date.now();
    const first = await runEngine({ root, baseURL: mock.url, threadId: "t-idle", requirement: "Add add()", config });
    expect(first.result).toMatchObject({ status: "waiting", exitCode: 3 });
    legsMs = Date.now() - legsMs;
    await sleep(8_300);
    const secondStart = Date.now();
    const answered = await runEngine({ root, baseURL: mock.url, threadId: "t-idle", answer: "Integers only", config });
    legsMs += Date.now() - secondStart;
    expect(answered.result).toMatchObject({ status: "passed", exitCode: 0 });
    // Not a timing threshold: the active time is at most the legs' own time, whatever the machine's load; the wait is not in it.
    expect((await readThread(root, "t-idle")).values.activeMs).toBeLessThanOrEqual(legsMs);
  });
});
