import { describe, expect, it } from "vitest";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { BACKENDS, useTestDatabase } from "../helpers/postgres.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

/** Every call costs 1,000 prompt + 100 completion tokens. */
const priced = (turns: Turn[]): Turn[] => turns.map((t) => ({ ...(t as ScriptedReply), usage: { prompt_tokens: 1000, completion_tokens: 100 } }));

// Usage is settled into the last checkpoint with LangGraph's task-less writes: both savers must keep them.
describe.each(BACKENDS)("usage of an agent stopped mid-way (%s)", (backend) => {
  const db = useTestDatabase(backend);
  it("is counted when the same agent is stopped twice on one checkpoint, and the total equals every call the model answered", async () => {
    const project = makeProject();
    const dir = director({
      analyst: priced([analystDone]),
      pm: priced([pmDone(false)]),
      dev: priced([call("list_files", {}), call("read_file", { path: "package.json" }), ...devWrites(GOOD_ADD)]),
      tea: priced([teaSays("PASS")]),
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());
    const root = project.root;

    // analyst + pm = 2,200 tokens; dev's first call passes the 2,500 budget, its second is refused.
    const first = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "t-twice",
      requirement: "Add add()",
      config: { budget: { maxTokens: 2500 } },
      env: db.env(),
    });
    expect(first.result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect((await readThread(root, "t-twice", {}, db.env())).values.usage).toMatchObject({ promptTokens: 3000, completionTokens: 300, calls: 3 });

    // Raised a little: dev starts again from its top, makes one call and is stopped again, before any new checkpoint.
    const second = await runEngine({ root, baseURL: mock.url, threadId: "t-twice", config: { budget: { maxTokens: 3500 } }, env: db.env() });
    expect(second.result).toMatchObject({ status: "limit", limit: "budget", exitCode: 7 });
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev"]);
    const stopped = await readThread(root, "t-twice", {}, db.env());
    expect(stopped.values.usage).toMatchObject({ promptTokens: 4000, completionTokens: 400, calls: 4 });
    expect(stopped.values.usageByNode.dev).toMatchObject({ calls: 2 });
    expect(second.events.at(-1)).toMatchObject({ type: "run.completed", usage: { calls: 4 } });
    // The resume's own header already counted the first stop.
    expect(second.events[0]).toMatchObject({ type: "run.started", usageSoFar: { calls: 3 } });

    const done = await runEngine({ root, baseURL: mock.url, threadId: "t-twice", config: { budget: { maxTokens: 20_000 } }, env: db.env() });
    expect(done.result).toMatchObject({ status: "passed", exitCode: 0 });
    const after = await readThread(root, "t-twice", {}, db.env());
    expect(after.values.usage.calls).toBe(mock.requests.length);
    expect(after.values.usage).toMatchObject({ promptTokens: 7000, completionTokens: 700, calls: 7 });
    expect(after.values.usageByNode).toMatchObject({ analyst: { calls: 1 }, pm: { calls: 1 }, dev: { calls: 4 }, tea: { calls: 1 } });
  });
});
