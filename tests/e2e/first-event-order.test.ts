import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

// `run.started` is said before the engine (LangGraph, the model client, the tools) is loaded. A pipeline must still
// tell "nothing ran" (exit 2, no event at all) from a run that started and then failed (run.started … run.completed).

const SCRIPTED_MCP = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));
const NO_TEST_SCRIPT = { "package.json": JSON.stringify({ name: "demo", version: "1.0.0", type: "module" }) };

describe.concurrent("what refuses a run does so before run.started: exit 2, nothing on stdout, no thread", () => {
  it("requireGate without a gate", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { ...NO_TEST_SCRIPT, "yolo.config.ts": "export default { requireGate: true };\n" });
    const mock = await mockWith(onTestFinished, () => ({ status: 500 }));
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/No gate: .*requireGate/);
    expect(mock.requests).toHaveLength(0);
    // The refusal came before the thread's row was written: there is no thread to list or resume.
    const threads = await runYolo(["threads", "--json"], { cwd: root });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    expect(JSON.parse(threads.stdout)).toEqual([]);
  });

  it("a bad agent file", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "agents/analyst.md": "---\nname: Analyst\ntools: 5\n---\nYou analyse.\n" });
    const mock = await mockWith(onTestFinished, () => ({ status: 500 }));
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("analyst.md");
    expect(mock.requests).toHaveLength(0);
  });

  it("no model configured", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
  });
});

describe.concurrent("what fails once the run started ends with an error event and run.completed, with the same exit codes", () => {
  it("run.started, said before the engine loads, is still scrubbed: a key pasted into the requirement is redacted", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const key = "sk-first-event-secret-4242";
    const mock = await mockWith(onTestFinished, () => ({ status: 401, body: { error: { message: "bad key" } } }));
    const r = await runYolo(["run", "--json", `Use the key ${key} to add numbers`], { cwd: root, baseURL: mock.url, env: { OPENAI_API_KEY: key } });
    expect(r.exitCode, describeResult(r)).toBe(5);
    const [started] = parseEvents(r.stdout);
    expect(started).toMatchObject({ type: "run.started", requirement: expect.stringContaining("[redacted]") });
    expect(r.stdout).not.toContain(key);
  });

  it("a required MCP server that does not start (loaded with the engine, after run.started): exit 2 after the event", async ({ onTestFinished }) => {
    const root = project(onTestFinished, {
      "yolo.config.ts": `export default { mcpServers: { db: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SCRIPTED_MCP)}, "crash"] } } };\n`,
    });
    const mock = await mockWith(onTestFinished, () => ({ status: 500 }));
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    const events = parseEvents(r.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", resumed: false, mode: "run", nodes: ["analyst", "pm", "architect", "dev", "tea"] });
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "config", message: expect.stringContaining('MCP server "db"') });
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "config_error", exitCode: 2 });
    expect(mock.requests).toHaveLength(0);
    // The thread that started is recorded with the outcome it ended with.
    const threads = await runYolo(["threads", "--json"], { cwd: root });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    const [row] = JSON.parse(threads.stdout) as { id: string; status: string; exitCode: number }[];
    expect(row).toMatchObject({ id: events[0].thread, status: "config_error", exitCode: 2 });
  });

  it("a provider that answers 401 after the start: exit 5 after run.started, then a whole run still passes on the same path", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const refused = await mockWith(onTestFinished, () => ({ status: 401, body: { error: { message: "bad key" } } }));
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: refused.url, env: { OPENAI_API_KEY: "sk-wrong-key-0000" } });
    expect(r.exitCode, describeResult(r)).toBe(5);
    const events = parseEvents(r.stdout);
    expect(events[0].type).toBe("run.started");
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "provider_error", exitCode: 5 });

    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const ok = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url });
    expect(ok.exitCode, describeResult(ok)).toBe(0);
    const passed = parseEvents(ok.stdout);
    expect(passed[0]).toMatchObject({ type: "run.started", requirement: "Add an add(a, b) function", resumed: false, mode: "run" });
    expect(passed.at(-1)).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0 });
  });
});

describe.concurrent("a resume reads where the thread stands before the model client loads; the same two orders hold", () => {
  const QUESTION = "Integers only, or floats too?";
  // A thread that waits for the analyst's question (exit 3), on a mock that then answers the rest of the run.
  async function waitingThread(onTestFinished: Parameters<typeof project>[0]) {
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [handoff({ escalate_to_human: true, question: QUESTION }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    const first = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    return { root, mock, thread: threadIdFrom(first.stdout) };
  }

  it("refusals come before any event: a review for a question, an unknown thread (exit 2, stdout empty)", async ({ onTestFinished }) => {
    const { root, mock, thread } = await waitingThread(onTestFinished);
    const before = mock.requests.length;
    const wrong = await runYolo(["resume", "--json", thread, "--approve"], { cwd: root, baseURL: mock.url });
    expect(wrong.exitCode, describeResult(wrong)).toBe(2);
    expect(wrong.stdout).toBe("");
    const unknown = await runYolo(["resume", "--json", "zzzzzzzz", "--answer", "ints"], { cwd: root, baseURL: mock.url });
    expect(unknown.exitCode, describeResult(unknown)).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(mock.requests.length).toBe(before);
    // Still waiting, and answered it runs to a pass: run.started (resumed, with what already ran) comes first.
    const answered = await runYolo(["resume", "--json", thread, "--answer", "integers"], { cwd: root, baseURL: mock.url });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    const events = parseEvents(answered.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", resumed: true, requirement: "Add an add(a, b) function", ran: ["analyst"] });
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0 });
  });

  it("a resume that runs nothing says no run.started: a waiting thread without its answer, a finished one; refusals of a finished one say nothing", async ({
    onTestFinished,
  }) => {
    const { root, mock, thread } = await waitingThread(onTestFinished);
    // Without its answer the thread only repeats its question (exit 3): no leg ran, so no run.started.
    const again = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(again.exitCode, describeResult(again)).toBe(3);
    expect(parseEvents(again.stdout).map((e) => e.type)).toEqual(["interrupt", "run.completed"]);
    const answered = await runYolo(["resume", "--json", thread, "--answer", "integers"], { cwd: root, baseURL: mock.url });
    expect(answered.exitCode, describeResult(answered)).toBe(0);
    const before = mock.requests.length;
    // Finished: resumed again it reports its outcome, and only that.
    const done = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(done.exitCode, describeResult(done)).toBe(0);
    expect(parseEvents(done.stdout).map((e) => e.type)).toEqual(["run.completed"]);
    expect(parseEvents(done.stdout)[0]).toMatchObject({ status: "passed", exitCode: 0 });
    // An answer, a review or a follow-up message for a finished workflow thread: refused before any event.
    for (const args of [["--answer", "yes"], ["--approve"], ["and also subtract"]]) {
      const refused = await runYolo(["resume", "--json", thread, ...args], { cwd: root, baseURL: mock.url });
      expect(refused.exitCode, describeResult(refused)).toBe(2);
      expect(refused.stdout).toBe("");
    }
    expect(mock.requests.length).toBe(before);
  });

  it("what fails once the resume started (a required MCP server, loaded after run.started) ends with error and run.completed, exit 2", async ({
    onTestFinished,
  }) => {
    const { root, mock, thread } = await waitingThread(onTestFinished);
    writeFileSync(
      join(root, "yolo.config.ts"),
      `export default { mcpServers: { db: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SCRIPTED_MCP)}, "crash"] } } };\n`,
    );
    // The user's own edit, trusted as a user must before the next command runs it.
    expect((await runYolo(["config", "trust"], { cwd: root })).exitCode).toBe(0);
    const before = mock.requests.length;
    const r = await runYolo(["resume", "--json", thread, "--answer", "integers"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    const events = parseEvents(r.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", resumed: true });
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "config", message: expect.stringContaining('MCP server "db"') });
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "config_error", exitCode: 2 });
    expect(mock.requests.length).toBe(before);
  });
});

describe("a run killed the moment run.started is out (the engine still loading)", () => {
  // Preloaded into the child: SIGKILL right after the first stdout write, before LangGraph has even been loaded.
  const KILL_AFTER_FIRST_WRITE = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => { const r = write(...args); process.kill(process.pid, "SIGKILL"); return r; };
`;

  it("leaves a thread shown as interrupted, and `yolo resume` says there is nothing to resume (exit 2)", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const dir = tempDir(onTestFinished);
    writeFileSync(join(dir, "kill.mjs"), KILL_AFTER_FIRST_WRITE);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const killed = await runYolo(["run", "--json", "Add an add(a, b) function"], {
      cwd: root,
      baseURL: mock.url,
      nodeArgs: ["--import", pathToFileURL(join(dir, "kill.mjs")).href],
    });
    expect(killed.signal, describeResult(killed)).toBe("SIGKILL");
    expect(parseEvents(killed.stdout).map((e) => e.type)).toEqual(["run.started"]);
    expect(mock.requests).toHaveLength(0);
    const thread = threadIdFrom(killed.stdout);
    const rows = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as { id: string; status: string }[];
    expect(rows).toEqual([expect.objectContaining({ id: thread, status: "interrupted" })]);
    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(2);
    expect(resumed.stdout).toBe("");
    expect(resumed.stderr).toContain(`Thread ${thread} has no checkpoint`);
  });
});
