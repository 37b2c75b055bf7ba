import { describe, expect, it } from "vitest";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { nodesStarted, readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

/** Every call costs 1,000 prompt + 100 completion tokens. */
const priced = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...(t as ScriptedReply), usage: { prompt_tokens: 1000, completion_tokens: 100 } }));

async function setup() {
  const project = makeProject();
  const dir = director({
    analyst: priced([analystDone]),
    pm: priced([pmDone(false)]),
    // The first call is sent before the budget stops dev; the resumed dev starts again from its top.
    dev: priced([devWrites(GOOD_ADD)[0] as ScriptedReply, ...devWrites(GOOD_ADD)]),
    tea: priced([teaSays("PASS")]),
  });
  const mock = await startMockOpenAI(dir);
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock, dir };
}

describe("token and cost budgets", () => {
  it("stops before the call that would exceed --max-tokens (exit 7), and a resume with a higher budget continues without re-running completed agents", async () => {
    const { root, mock, dir } = await setup();
    const first = await runEngine({ root, baseURL: mock.url, threadId: "t-budget", requirement: "Add add()", config: { budget: { maxTokens: 2500 } } });
    expect(first.result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect(first.result.reason).toContain("token budget: 3300 of 2500 tokens used");
    expect(first.result.reason).toContain("--max-tokens");
    // analyst, pm, then one dev call; the second dev call was never sent.
    expect(dir.served).toEqual(["analyst", "pm", "dev"]);

    // The stopped dev's call was paid for: it is in the thread's usage although dev did not complete.
    const before = await readThread(root, "t-budget");
    expect(before.values.usage).toMatchObject({ promptTokens: 3000, completionTokens: 300, calls: 3 });
    expect(before.values.usageByNode.dev).toMatchObject({ promptTokens: 1000, completionTokens: 100, calls: 1 });
    expect(first.events.at(-1)).toMatchObject({ type: "run.completed", usage: { promptTokens: 3000, completionTokens: 300, calls: 3 } });

    // The budget counts the run as a whole: resuming with the same budget stops again before any call.
    const again = await runEngine({ root, baseURL: mock.url, threadId: "t-budget", config: { budget: { maxTokens: 2200 } } });
    expect(again.result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect(dir.served).toEqual(["analyst", "pm", "dev"]);

    const resumed = await runEngine({ root, baseURL: mock.url, threadId: "t-budget", config: { budget: { maxTokens: 20_000 } } });
    expect(resumed.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(nodesStarted(resumed.events)).toEqual(["dev", "tea"]);
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev", "dev", "tea"]);
    // Every call the model answered is counted once: the stopped dev's first call, then the resumed dev's two.
    const after = await readThread(root, "t-budget");
    expect(after.values.usage).toMatchObject({ promptTokens: 6 * 1000, completionTokens: 6 * 100, calls: 6 });
    expect(after.values.usage.calls).toBe(mock.requests.length);
    expect(after.values.usageByNode.dev).toMatchObject({ promptTokens: 3000, completionTokens: 300, calls: 3 });
  });

  it("stops at --max-cost using model.price", async () => {
    const { root, mock, dir } = await setup();
    const price = { inputPerMillion: 1000, outputPerMillion: 1000, currency: "EUR" };
    const { result } = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "t-cost",
      requirement: "Add add()",
      config: { model: { price }, budget: { maxCost: 2 } },
    });
    expect(result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect(result.reason).toContain("cost budget: 2.2000 of 2 EUR spent");
    expect(dir.served).toEqual(["analyst", "pm"]);
  });
});
