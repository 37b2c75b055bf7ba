import { describe, expect, it } from "vitest";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// A server that reports usage no server can have (negative, astronomically large) must not switch --max-tokens
// off: the counts are treated as unknown and the call's usage is estimated instead, marked as an estimate.

const cleanups = cleanupsAfterEach();

const ROUTES: [string, ScriptedReply["usage"]][] = [
  ["negative counts", { prompt_tokens: -1_000_000, completion_tokens: -1 }],
  ["a negative prompt and a plausible completion", { prompt_tokens: -5_000, completion_tokens: 10 }],
  ["astronomical counts", { prompt_tokens: 1e300, completion_tokens: 1e300 }],
  ["fractional counts", { prompt_tokens: 0.5, completion_tokens: -0.5 }],
];

describe("hostile usage reports", () => {
  it.each(ROUTES)("%s: the budget still stops the run (exit 7), on estimated usage", async (_label, usage) => {
    const project = makeProject();
    const with_ = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...(t as ScriptedReply), usage }));
    const dir = director({
      analyst: with_([analystDone]),
      pm: with_([pmDone(false)]),
      dev: with_(devWrites(GOOD_ADD)),
      tea: with_([teaSays("PASS")]),
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());
    const { result } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "t-usage",
      requirement: "Add add()",
      config: { budget: { maxTokens: 300 } },
    });
    expect(result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect(dir.served.length).toBeLessThan(4);
    const thread = await readThread(project.root, "t-usage");
    expect(thread.values.usage.estimated).toBe(true);
    expect(thread.values.usage.promptTokens).toBeGreaterThan(0);
    expect(thread.values.usage.promptTokens + thread.values.usage.completionTokens).toBeLessThan(1e9);
  });
});
