import { describe, expect, it } from "vitest";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

const withUsage = (turns: Turn[], cached?: number): Turn[] =>
  turns.map((t) => ({
    ...(t as ScriptedReply),
    usage: { prompt_tokens: 1000, completion_tokens: 100, ...(cached === undefined ? {} : { cached_tokens: cached }) },
  }));

describe("cached prompt tokens", () => {
  it("are recorded per call and per agent where the provider reports them, through the real client", async () => {
    const project = makeProject();
    // pm's provider reports no cache figures at all: it counts as 0, not as unknown.
    const dir = director({
      analyst: withUsage([analystDone], 600),
      pm: withUsage([pmDone(false)]),
      dev: withUsage(devWrites(GOOD_ADD), 900),
      tea: withUsage([teaSays("PASS")], 0),
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());

    const run = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-cache", requirement: "Add add()" });
    expect(run.result.status).toBe("passed");
    const usages = run.events.flatMap((e) => (e.type === "usage" ? [e.usage.cachedTokens] : []));
    expect(usages).toEqual([600, 0, 900, 900, 0]);
    expect(run.events.at(-1)).toMatchObject({ type: "run.completed", usage: { promptTokens: 5000, cachedTokens: 2400, calls: 5 } });

    const { values } = await readThread(project.root, "t-cache");
    expect(values.usage).toMatchObject({ promptTokens: 5000, cachedTokens: 2400 });
    expect(values.usageByNode).toMatchObject({
      analyst: { cachedTokens: 600 },
      pm: { cachedTokens: 0 },
      dev: { cachedTokens: 1800 },
      tea: { cachedTokens: 0 },
    });
  });
});
