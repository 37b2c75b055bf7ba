import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UserConfig } from "../../src/config/schema.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { nodesStarted, readThread, routes, runEngine } from "../helpers/engine.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

async function setup(script: Record<string, Turn[]>) {
  const project = makeProject();
  const dir = director(script);
  const mock = await startMockOpenAI(dir);
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock, dir };
}

// The fixture's test script as the configured gate: these cases are about routing and reviews, not npm's detection, and
// npm's own start costs about 0.5 s of CPU a gate run. The pipeline with the detected `npm test`:
// tests/integration/pipeline-branches.test.ts.
const GATES: UserConfig["gates"] = [{ name: "test", command: "node --test test/" }];

// "bug or feature?": a switch node routes bugs straight to dev and features through the analyst first.
const triageConfig: UserConfig = {
  gates: GATES,
  workflow: {
    nodes: {
      triage: {
        kind: "switch",
        prompt: "Is this requirement a bug fix or a new feature?",
        cases: [
          { route: "bug", when: "it fixes behaviour that is broken" },
          { route: "feature", when: "it adds new behaviour" },
        ],
      },
      analyst: { kind: "agent" },
      dev: { kind: "agent" },
      tea: { kind: "agent", gates: true },
    },
    edges: [
      { from: "start", to: "triage" },
      { from: "triage", to: "dev", case: "bug" },
      { from: "triage", to: "analyst", case: "feature" },
      { from: "triage", to: "end", case: "default" },
      { from: "analyst", to: "dev" },
      { from: "dev", to: "tea" },
      { from: "tea", to: "dev", when: "gate_blocked && fix_attempts_remain" },
      { from: "tea", to: "end" },
    ],
  },
};

const decide = (answer: unknown) => call("switch_decision", typeof answer === "string" ? { case: answer, reason: "because" } : answer);

describe("a custom workflow with a switch node", () => {
  it("offers the cases as an enum with default, and routes the bug case to dev", async () => {
    const { root, mock } = await setup({ triage: [decide("bug")], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const { result, events } = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "s-bug",
      requirement: "add() returns the wrong sign",
      config: triageConfig,
    });
    expect(result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(events)).toEqual(["triage", "dev", "tea"]);
    expect(routes(events)).toEqual(["triage→dev", "dev→tea", "tea→end"]);
    const tool = mock.requests[0].tools.find((t: { function: { name: string } }) => t.function.name === "switch_decision");
    expect(tool.function.parameters.properties.case.enum).toEqual(["bug", "feature", "default"]);
    expect(JSON.stringify(mock.requests[0].messages)).toContain("Is this requirement a bug fix or a new feature?");
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    const { values } = await readThread(root, "s-bug", triageConfig);
    expect(values.switchDecisions).toEqual([{ node: "triage", taken: "bug", to: "dev", raw: '{"case":"bug","reason":"because"}', fallback: null }]);
  });

  it("routes the feature case through the analyst", async () => {
    const { root, mock } = await setup({ triage: [decide("feature")], analyst: [analystDone], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "s-feature", requirement: "Add add()", config: triageConfig });
    expect(result.status).toBe("passed");
    expect(nodesStarted(events)).toEqual(["triage", "analyst", "dev", "tea"]);
  });

  it.each([
    ["an unknown case", decide("refactor"), '"refactor" is not one of the cases'],
    ["a wrong type", decide({ case: 7 }), "the model answered a number, not a case"],
    ["invalid JSON", { toolCalls: [{ name: "switch_decision", args: '{"case": "bu' }] }, "the model made no switch_decision"],
    ["no call at all", { content: "It is probably a bug." }, "the model made no switch_decision"],
  ])("falls back to default on %s, records it, and never stops the run", async (_name, turn, why) => {
    const { root, mock } = await setup({ triage: [turn] });
    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "s-default", requirement: "Do something", config: triageConfig });
    expect(result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(routes(events)).toEqual(["triage→end"]);
    const { values } = await readThread(root, "s-default", triageConfig);
    expect(values.switchDecisions[0]).toMatchObject({ node: "triage", taken: "default", to: "end", fallback: why });
  });
});

describe("human approvals", () => {
  const approvePm: UserConfig = { approve: ["pm"], gates: GATES };

  it("pauses after pm with the stories to review, and approve continues the run", async () => {
    const { root, mock } = await setup({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const first = await runEngine({ root, baseURL: mock.url, threadId: "h-approve", requirement: "Add add()", config: approvePm });
    expect(first.result).toMatchObject({ status: "waiting", exitCode: 3 });
    expect(first.result.request).toMatchObject({ kind: "approval", node: "approve_pm", reviews: "pm" });
    const interrupt = first.events.find((e) => e.type === "interrupt");
    expect(interrupt).toMatchObject({ kind: "approval", node: "approve_pm" });
    expect(interrupt?.type === "interrupt" && interrupt.artifact).toContain("title: Add numbers");
    expect(first.result.resumeCommand).toBe('yolo resume h-approve --approve | --edit <file> | --reject "<why>"');

    const second = await runEngine({ root, baseURL: mock.url, threadId: "h-approve", review: { action: "approve" }, config: approvePm });
    expect(second.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(second.events)).toEqual(["approve_pm", "dev", "tea"]);
  });

  it("an edit replaces the stories the next agents see", async () => {
    const { root, mock } = await setup({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const first = await runEngine({ root, baseURL: mock.url, threadId: "h-edit", requirement: "Add add()", config: approvePm });
    const artifact = first.result.request!.kind === "approval" ? first.result.request!.artifact : "";
    const edited = artifact.replace("title: Add numbers", "title: Add two integers");

    // An unusable edit is refused before anything runs, and the thread keeps waiting.
    await expect(
      runEngine({ root, baseURL: mock.url, threadId: "h-edit", review: { action: "edit", content: "stories: 3" }, config: approvePm }),
    ).rejects.toThrow(/The edit cannot be used: the edited artifact is invalid: stories/);

    const second = await runEngine({ root, baseURL: mock.url, threadId: "h-edit", review: { action: "edit", content: edited }, config: approvePm });
    expect(second.result.status).toBe("passed");
    const devPrompt = JSON.stringify(mock.requests.find((r) => roleOf(r) === "dev")!.messages);
    expect(devPrompt).toContain("Add two integers");
    expect(devPrompt).not.toContain("Add numbers");
    const { values } = await readThread(root, "h-edit", approvePm);
    expect(values.reviews).toEqual([{ by: "approve_pm", node: "pm", action: "edit", reason: null }]);
  });

  it("a rejection sends pm back with the reason, then approval continues", async () => {
    const { root, mock } = await setup({ analyst: [analystDone], pm: [pmDone(false), pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    await runEngine({ root, baseURL: mock.url, threadId: "h-reject", requirement: "Add add()", config: approvePm });
    const rejected = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "h-reject",
      review: { action: "reject", reason: "split it into two stories" },
      config: approvePm,
    });
    expect(rejected.result.status).toBe("waiting");
    expect(routes(rejected.events)).toEqual(["approve_pm→pm", "pm→approve_pm"]);
    const pmAgain = mock.requests.filter((r) => roleOf(r) === "pm")[1];
    expect(JSON.stringify(pmAgain.messages)).toContain("split it into two stories");

    const done = await runEngine({ root, baseURL: mock.url, threadId: "h-reject", review: { action: "approve" }, config: approvePm });
    expect(done.result.status).toBe("passed");
  });

  it("refuses an answer where a review is awaited, and a review where a question is", async () => {
    const { root, mock } = await setup({ analyst: [analystDone], pm: [pmDone(false)] });
    await runEngine({ root, baseURL: mock.url, threadId: "h-mismatch", requirement: "Add add()", config: approvePm });
    await expect(runEngine({ root, baseURL: mock.url, threadId: "h-mismatch", answer: "yes", config: approvePm })).rejects.toThrow(
      /waits for a review, not an answer/,
    );
  });
});
