import { Command, MemorySaver } from "@langchain/langgraph";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, LimitError } from "../../src/errors.js";
import { createServerGraph } from "../../src/server/create-graph.js";
import { recordConfigTrust } from "../../src/config/trust/config-trust.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

function project(config: string) {
  const p = makeProject({ "yolo.config.ts": config });
  cleanups.push(p.cleanup);
  return p.root;
}

// The user's state folder (the config trust records) for one test, never the real home's.
function stateHome(): string {
  const dir = mkdtempSync(join(tmpdir(), "yolo-state-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// What LangGraph's server does with the exported graph: attaches its own checkpointer, then runs by thread id.
const attach = <G extends { checkpointer?: unknown }>(graph: G, saver: MemorySaver) => Object.assign(graph, { checkpointer: saver });

describe("the graph factory LangGraph's server loads", () => {
  it("serves YOLO_PROJECT's workflow without a checkpointer, with limits.maxSteps as the default recursion limit", async () => {
    const root = project("export default { limits: { maxSteps: 77 } };\n");
    const graph = await createServerGraph({ env: { YOLO_PROJECT: root, OPENAI_BASE_URL: "http://127.0.0.1:9/v1", XDG_STATE_HOME: stateHome() }, cwd: "/" });
    expect(graph.checkpointer).toBeUndefined();
    expect(graph.config?.recursionLimit).toBe(77);
    expect(Object.keys(graph.nodes)).toEqual(expect.arrayContaining(["analyst", "pm", "architect", "dev", "tea", "escalate"]));
  });

  it("refuses to build (so the server refuses to register it) when the project or the model is missing", async () => {
    await expect(createServerGraph({ env: { YOLO_PROJECT: "/nonexistent/yolo-project", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }, cwd: "/" })).rejects.toThrow(
      /YOLO_PROJECT/,
    );
    const root = project("export default {};\n");
    await expect(createServerGraph({ env: { YOLO_PROJECT: root, XDG_STATE_HOME: stateHome() }, cwd: "/" })).rejects.toBeInstanceOf(ConfigError);
  });

  it("counts the token budget across a resume under another checkpointer, and continues once the budget is raised", async () => {
    const tokens = (reply: ScriptedReply): ScriptedReply => ({ ...reply, usage: { prompt_tokens: 600, completion_tokens: 0 } });
    const mock = await startMockOpenAI(
      director({
        analyst: [tokens(handoff({ escalate_to_human: true, question: "Floats?" })), tokens(analystDone)],
        pm: [tokens(pmDone(false))],
        dev: devWrites(GOOD_ADD).map((t) => tokens(t as ScriptedReply)),
        tea: [tokens(teaSays("PASS"))],
      }),
    );
    cleanups.push(() => mock.close());
    const root = project("export default { model: { maxRetries: 0 }, budget: { maxTokens: 1000 } };\n");
    const env = { YOLO_PROJECT: root, OPENAI_BASE_URL: mock.url, XDG_STATE_HOME: stateHome() };
    const saver = new MemorySaver();
    const thread = { configurable: { thread_id: "3f1c2a4e-0000-4000-8000-000000000001" } };

    const graph = attach(await createServerGraph({ env, cwd: "/" }), saver);
    await graph.invoke({ requirement: "Add add()" }, thread);
    expect((await graph.getState(thread)).next).toEqual(["escalate"]);
    // 600 tokens before the pause; the answered analyst brings it to 1200, so pm is refused before its call.
    await expect(graph.invoke(new Command({ resume: "Yes" }), thread)).rejects.toBeInstanceOf(LimitError);
    expect((await graph.getState(thread)).values.usage.totalTokens).toBe(1200);

    // A server restarted with a higher budget continues the same thread at pm (invoke(null) = a run with no input),
    // once the user trusts the changed config: until then the server refuses it, as every command does.
    writeFileSync(join(root, "yolo.config.ts"), "export default { model: { maxRetries: 0 }, budget: { maxTokens: 100000 } };\n");
    await expect(createServerGraph({ env, cwd: "/" })).rejects.toThrow(/changed since you trusted it/);
    await recordConfigTrust(root, env);
    const again = attach(await createServerGraph({ env, cwd: "/" }), saver);
    const done = await again.invoke(null, thread);
    expect(done).toMatchObject({ gateBlocked: false, verdict: "PASS" });
  });

  it("asks a review again, with the problem, when a client resumes with an unreadable answer or an edit that cannot be used", async () => {
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)] }));
    cleanups.push(() => mock.close());
    const root = project('export default { model: { maxRetries: 0 }, approve: ["pm"] };\n');
    const saver = new MemorySaver();
    const thread = { configurable: { thread_id: "3f1c2a4e-0000-4000-8000-000000000002" } };
    const graph = attach(await createServerGraph({ env: { YOLO_PROJECT: root, OPENAI_BASE_URL: mock.url, XDG_STATE_HOME: stateHome() }, cwd: "/" }), saver);
    const pending = async () => (await graph.getState(thread)).tasks.flatMap((t) => t.interrupts.map((i) => i.value as { kind: string; problem?: string }));

    await graph.invoke({ requirement: "Add add()" }, thread);
    expect(await pending()).toEqual([expect.objectContaining({ kind: "approval", node: "approve_pm" })]);
    expect((await pending())[0]!.problem).toBeUndefined();

    await graph.invoke(new Command({ resume: "looks fine I guess" }), thread);
    expect((await pending())[0]!.problem).toMatch(/unreadable answer/);
    await graph.invoke(new Command({ resume: { action: "edit", content: "stories: not-a-list" } }), thread);
    expect((await pending())[0]!.problem).toMatch(/the edit cannot be used/);
    // Nothing was taken as a rejection: pm ran once, and an approval now moves the run on to dev.
    expect((await graph.getState(thread)).values.reviews).toEqual([]);
    await graph.invoke(new Command({ resume: "approve" }), thread).catch(() => undefined);
    const values = (await graph.getState(thread)).values;
    expect(values.reviews).toEqual([expect.objectContaining({ by: "approve_pm", action: "approve" })]);
  });
});
