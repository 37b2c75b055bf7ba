import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { api, groupAlive, startLangGraphServer, streamRun, type LangGraphServer } from "../helpers/langgraph-server.js";
import { startMockOpenAI, type MockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

// The workflow served by LangGraph's own dev server (`langgraphjs dev`, a real child process on 127.0.0.1), driven
// only through its HTTP API, against a temp project and the scripted OpenAI-compatible mock.
let server: LangGraphServer;
let mock: MockOpenAI;
let project: { root: string; cleanup: () => void };

beforeAll(async () => {
  project = makeProject({ "yolo.config.ts": "export default { model: { maxRetries: 0 } };\n" });
  mock = await startMockOpenAI(director({}));
  server = await startLangGraphServer({ YOLO_PROJECT: project.root, OPENAI_BASE_URL: mock.url });
  // The start-up time is reported, not asserted: about 4 s on a quiet 2-core machine.
  process.stderr.write(`langgraph dev server ready in ${server.startMs} ms\n`);
}, 90_000);

afterAll(async () => {
  const pgid = server?.pgid;
  await server?.stop();
  await mock?.close();
  project?.cleanup();
  // Nothing of the server is left: the CLI, tsx and the server process all belong to the stopped group.
  if (pgid) expect(groupAlive(pgid)).toBe(false);
}, 30_000);

const ASSISTANT = "yolo";

describe("the workflow under LangGraph's dev server", () => {
  it("registers the graph as an assistant and runs a thread to a passed gate with input { requirement }", async () => {
    const dir = director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    mock.setResponder(dir);
    const assistants = await api(server, "POST", "/assistants/search", { graph_id: ASSISTANT });
    expect(assistants.map((a: { graph_id: string }) => a.graph_id)).toEqual([ASSISTANT]);

    const thread = await api(server, "POST", "/threads", {});
    const values = await api(server, "POST", `/threads/${thread.thread_id}/runs/wait`, {
      assistant_id: ASSISTANT,
      input: { requirement: "Add an add(a, b) function to src/add.js" },
    });

    expect(values).toMatchObject({ gateBlocked: false, verdict: "PASS", fixAttempts: 0, filesChanged: ["src/add.js"] });
    expect(values.lastGates).toMatchObject([{ name: "test", passed: true, exitCode: 0, passedCount: 2 }]);
    expect(readFileSync(join(project.root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(dir.served).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
    // Transcripts and gate logs land in the served project's .yolo/, under the server's thread id.
    expect(readFileSync(join(project.root, ".yolo/threads", thread.thread_id, "gates/attempt-1-test.log"), "utf8")).toContain("adds two numbers");
    const state = await api(server, "GET", `/threads/${thread.thread_id}/state`);
    expect(state.next).toEqual([]);
    expect((await api(server, "GET", `/threads/${thread.thread_id}`)).status).toBe("idle");
  });

  it("pauses on an agent's question (interrupt) and resumes with a Command carrying the answer", async () => {
    const question = "Integers only, or floats too?";
    const dir = director({
      analyst: [handoff({ escalate_to_human: true, question }), analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [teaSays("PASS")],
    });
    mock.setResponder(dir);
    const thread = await api(server, "POST", "/threads", {});
    const first = await api(server, "POST", `/threads/${thread.thread_id}/runs/wait`, { assistant_id: ASSISTANT, input: { requirement: "Add add()" } });
    // runs/wait answers an interrupted run with the interrupt itself: yolo's question payload.
    expect(first.__interrupt__).toMatchObject([{ value: { kind: "question", question, askedBy: "analyst" } }]);

    // Where Studio reads it: the thread is interrupted, and the pending task carries yolo's payload.
    const waiting = await api(server, "GET", `/threads/${thread.thread_id}`);
    expect(waiting.status).toBe("interrupted");
    const state = await api(server, "GET", `/threads/${thread.thread_id}/state`);
    expect(state.next).toEqual(["escalate"]);
    expect(state.tasks[0].interrupts[0].value).toEqual({ kind: "question", question, askedBy: "analyst" });
    expect(state.values).toMatchObject({ escalateToHuman: true, question, askedBy: "analyst" });

    // The answer goes in as a Command; streamed, so yolo's own events arrive on the `custom` channel.
    const events = await streamRun(server, thread.thread_id, {
      assistant_id: ASSISTANT,
      command: { resume: "Floats too" },
      stream_mode: ["custom", "values"],
    });
    expect(events.filter((e) => e.event === "error")).toEqual([]);
    const started = events.filter((e) => e.event === "custom" && e.data?.type === "node.started").map((e) => e.data.node);
    expect(started).toEqual(["analyst", "pm", "dev", "tea"]);
    const final = events.filter((e) => e.event === "values").at(-1)?.data;
    expect(final).toMatchObject({ gateBlocked: false, verdict: "PASS", answers: [{ node: "analyst", question, answer: "Floats too" }] });
    const analystAgain = mock.requests.filter((r) => JSON.stringify(r.messages[0]).includes("You are the analyst agent")).at(-1);
    expect(JSON.stringify(analystAgain?.messages)).toContain("Floats too");
    expect((await api(server, "GET", `/threads/${thread.thread_id}`)).status).toBe("idle");
  });

  it("ends a run in an error on a provider failure, and a run without input continues the thread at the agent that stopped", async () => {
    // No turn scripted for pm: the mock answers 400, a provider error that is not retried.
    mock.setResponder(director({ analyst: [analystDone] }));
    const thread = await api(server, "POST", "/threads", {});
    const failed = await api(server, "POST", `/threads/${thread.thread_id}/runs/wait`, { assistant_id: ASSISTANT, input: { requirement: "Add add()" } });
    // yolo's typed error reaches the API: its class and message, wrapped by the server.
    expect(failed.__error__.message).toMatch(/ProviderError.*refused the request.*HTTP 400/);
    expect((await api(server, "GET", `/threads/${thread.thread_id}`)).status).toBe("error");
    const [run] = await api(server, "GET", `/threads/${thread.thread_id}/runs`);
    expect(run.status).toBe("error");

    const dir = director({ pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    mock.setResponder(dir);
    const values = await api(server, "POST", `/threads/${thread.thread_id}/runs/wait`, { assistant_id: ASSISTANT });
    expect(values).toMatchObject({ gateBlocked: false, verdict: "PASS", visits: { analyst: 1, pm: 1, dev: 1, tea: 1 } });
    expect(dir.served).toEqual(["pm", "dev", "dev", "tea"]);
  });
});
