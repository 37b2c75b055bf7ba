import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { call, director, GOOD_ADD, handoff } from "../helpers/director.js";
import { nodesStarted, readThread, runEngine } from "../helpers/engine.js";
import { startMockOpenAI, textOf } from "../helpers/mock-openai.js";
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

const systemText = (req: { messages: { role: string; content: unknown }[] }) =>
  req.messages
    .filter((m) => m.role === "system")
    .map((m) => textOf(m.content))
    .join("\n");
const userText = (req: { messages: { role: string; content: unknown }[] }) =>
  req.messages
    .filter((m) => m.role === "user")
    .map((m) => textOf(m.content))
    .join("\n");

describe("agent threads (yolo agent <id>)", () => {
  it("runs one agent with its persona and tools, no pipeline, and answers a follow-up in the same thread", async () => {
    const { root, mock, dir } = await setup({
      dev: [
        call("write_file", { path: "src/add.js", content: GOOD_ADD }),
        handoff({ summary: "Wrote src/add.js with add(a, b).", files_changed: ["src/add.js"] }),
        handoff({ summary: "add returns a + b; there is nothing else in it.", files_changed: [] }),
      ],
    });
    const first = await runEngine({
      root,
      baseURL: mock.url,
      threadId: "t-agent",
      requirement: "Write add(a, b) in src/add.js",
      profile: { mode: "agent", agentId: "dev" },
    });
    expect(first.result).toMatchObject({ status: "passed", exitCode: 0, resumeCommand: null });
    expect(first.result.reason).toContain("dev answered: Wrote src/add.js");
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(nodesStarted(first.events)).toEqual(["dev"]);
    expect(first.events[0]).toMatchObject({ type: "run.started", mode: "agent", nodes: ["dev"] });
    expect(first.events).toContainEqual(expect.objectContaining({ type: "reply", node: "dev", text: "Wrote src/add.js with add(a, b)." }));
    expect(first.events.at(-1)).toMatchObject({ type: "run.completed", filesChanged: ["src/add.js"] });

    // agent mode: persona and runtime rules, no run directive or node brief; the message is fenced user input.
    const req = mock.requests[0];
    expect(systemText(req)).toContain("You are the dev agent in yolo, working on your own (no pipeline)");
    expect(systemText(req)).toContain("write_file");
    expect(userText(req)).not.toContain("Start your part of the run");
    expect(userText(req)).not.toContain("## Your output");
    expect(userText(req)).toMatch(/<data source="user">\n`+\nWrite add\(a, b\) in src\/add.js/);

    const follow = await runEngine({ root, baseURL: mock.url, threadId: "t-agent", message: "What does add return?" });
    // The leg names its new message (the views show it in place of the first one).
    expect(follow.events[0]).toMatchObject({
      type: "run.started",
      mode: "agent",
      requirement: expect.not.stringContaining("What does add return?"),
      message: "What does add return?",
    });
    expect(follow.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(follow.events).toContainEqual(expect.objectContaining({ type: "reply", text: "add returns a + b; there is nothing else in it." }));
    expect(dir.served).toEqual(["dev", "dev", "dev"]);
    // The follow-up sees the conversation so far: the first message and the agent's answer.
    const followUp = userText(mock.requests[2]);
    expect(followUp).toContain("## Earlier in this conversation");
    expect(followUp).toContain("Write add(a, b) in src/add.js");
    expect(followUp).toContain("Wrote src/add.js with add(a, b).");
    expect(followUp).toMatch(/## Now\n<data source="user">\n`+\nWhat does add return\?/);

    const { values } = await readThread(root, "t-agent");
    expect(values).toMatchObject({ mode: "agent", agentId: "dev" });
    expect(values.conversation.map((t) => t.role)).toEqual(["user", "agent", "user", "agent"]);
    expect(values.usage.calls).toBe(3);
  });

  it("refuses an unknown agent id, naming the known ones", async () => {
    const { root, mock } = await setup({});
    const run = runEngine({ root, baseURL: mock.url, threadId: "t-unknown", requirement: "x", profile: { mode: "agent", agentId: "nobody" } });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/There is no agent "nobody"\. Known agents: analyst, architect, dev, pm, tea/);
    expect(mock.requests).toHaveLength(0);
  });
});

describe("chat threads (yolo chat)", () => {
  it("answers in plain text with read-only tools and no persona, and continues the conversation on a follow-up", async () => {
    const { root, mock, dir } = await setup({
      chat: [
        call("read_file", { path: "package.json" }),
        { content: "The project is called demo; `npm test` runs node --test." },
        { content: "It has one test file." },
      ],
    });
    const first = await runEngine({ root, baseURL: mock.url, threadId: "t-chat", requirement: "What is this project?", profile: { mode: "chat" } });
    expect(first.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(first.events[0]).toMatchObject({ type: "run.started", mode: "chat", nodes: ["chat"] });
    expect(first.events).toContainEqual(
      expect.objectContaining({ type: "reply", node: "chat", text: "The project is called demo; `npm test` runs node --test." }),
    );

    const req = mock.requests[0];
    // Only the read-only tools (and handoff) are offered; no persona layer.
    expect(req.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(["handoff", "list_files", "read_file", "search_files"]);
    expect(systemText(req)).toContain("reply with it as plain text without a tool call");
    expect(req.messages.filter((m: { role: string }) => m.role === "system")).toHaveLength(2);

    const follow = await runEngine({ root, baseURL: mock.url, threadId: "t-chat", message: "How many test files?" });
    expect(follow.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(dir.served).toEqual(["chat", "chat", "chat"]);
    expect(userText(mock.requests[2])).toContain("The project is called demo");
    const { values } = await readThread(root, "t-chat");
    expect(values.mode).toBe("chat");
    expect(values.conversation.at(-1)).toEqual({ role: "agent", text: "It has one test file." });
    expect(existsSync(join(root, ".yolo/threads/t-chat/transcripts/chat.jsonl"))).toBe(true);
  });

  it("refuses a follow-up on a pipeline thread and on a thread that has not finished", async () => {
    const { root, mock } = await setup({ chat: [{ status: 401, content: "bad key" }], analyst: [{ status: 401, content: "bad key" }] });
    const stopped = await runEngine({ root, baseURL: mock.url, threadId: "t-stopped", requirement: "hi", profile: { mode: "chat" } });
    expect(stopped.result).toMatchObject({ status: "provider_error", exitCode: 5 });
    await expect(runEngine({ root, baseURL: mock.url, threadId: "t-stopped", message: "again" })).rejects.toThrow(/has not finished its last message/);
    const pipeline = await runEngine({ root, baseURL: mock.url, threadId: "t-run", requirement: "Add add()" });
    expect(pipeline.result).toMatchObject({ status: "provider_error" });
    await expect(runEngine({ root, baseURL: mock.url, threadId: "t-run", message: "and more" })).rejects.toThrow(
      /runs a workflow: follow-up messages are for `yolo agent` and `yolo chat` threads/,
    );
  });
});
