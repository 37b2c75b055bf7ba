import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, cleanEnv, deferred, waitFor } from "../helpers/cli.js";
import { call, director, GOOD_ADD, handoff } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// The SDK's own client, starting `yolo mcp` (the built binary) over stdio in the project.
async function connect(root: string, baseURL: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: root, env: cleanEnv({ baseURL }), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return { client, stderr: () => stderr };
}

const text = (r: unknown) => (((r as { content?: unknown }).content as { type: string; text: string }[]) ?? []).map((c) => c.text).join("\n");

describe("yolo mcp: yolo as an MCP server, driven by the SDK's client", () => {
  it("lists its tools; runs an agent that asks a question (exit 3) with progress, answers it through resume (exit 0), lists, shows and reports the thread", async () => {
    const question = "Should add() accept strings?";
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        dev: [
          handoff({ escalate_to_human: true, question }),
          call("write_file", { path: "src/add.js", content: GOOD_ADD }),
          handoff({ summary: "Wrote add.", files_changed: ["src/add.js"] }),
        ],
      }),
    );
    const { client, stderr } = await connect(root, mock.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["report", "resume", "run", "show", "threads"]);

    const progress: string[] = [];
    const asked = await client.callTool({ name: "run", arguments: { requirement: "Write add(a, b)", mode: "agent", agent: "dev" } }, undefined, {
      onprogress: (p) => progress.push(String(p.message)),
    });
    const first = asked.structuredContent as { threadId: string; status: string; exitCode: number; question: string };
    expect(first, stderr()).toMatchObject({ status: "waiting", exitCode: 3, question });
    expect(first.threadId).toMatch(/^\w+$/);
    expect(text(asked)).toContain(`question: ${question}`);
    expect(progress[0]).toBe(`thread ${first.threadId}: started`);
    expect(progress).toContain("dev started");
    expect(progress.at(-1)).toBe("waiting (exit 3)");

    const answered = await client.callTool({ name: "resume", arguments: { thread: first.threadId, answer: "No, numbers only." } });
    expect(answered.structuredContent).toMatchObject({ threadId: first.threadId, status: "passed", exitCode: 0 });
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    // The answer reached the model as the human's answer.
    expect(JSON.stringify(mock.requests.at(-2)?.messages)).toContain("No, numbers only.");

    const threads = await client.callTool({ name: "threads", arguments: {} });
    expect(JSON.parse(text(threads))).toContainEqual(expect.objectContaining({ id: first.threadId, status: "passed" }));
    const shown = await client.callTool({ name: "show", arguments: { thread: first.threadId } });
    expect(shown.isError).toBeFalsy();
    expect(text(shown)).toContain("src/add.js");
    const report = await client.callTool({ name: "report", arguments: { thread: first.threadId } });
    expect(report.isError).toBeFalsy();
    expect(text(report)).toContain(first.threadId);
  });

  it("a thread that does not exist, or a run refused before it starts, is a tool error with yolo's message, and the server keeps serving", async () => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, () => ({ content: "fine" }));
    const { client } = await connect(root, mock.url);
    const missing = await client.callTool({ name: "show", arguments: { thread: "nosuch" } });
    expect(missing.isError).toBe(true);
    const refused = await client.callTool({ name: "run", arguments: { requirement: "x", mode: "agent", agent: "no-such-agent" } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ threadId: null, status: "config_error", exitCode: 2 });
    expect(text(refused)).toContain("no-such-agent");
    const chat = await client.callTool({ name: "run", arguments: { requirement: "-- what is this?", mode: "chat" } });
    expect(chat.structuredContent).toMatchObject({ status: "passed", exitCode: 0 });
  });

  it("cancelling a run request stops the run (SIGTERM to its child): the thread is interrupted and resumable", async () => {
    const root = project(onTestFinished);
    const hold = deferred();
    onTestFinished(hold.release);
    const mock = await mockWith(onTestFinished, () => ({ hold: hold.promise, content: "late" }));
    const { client } = await connect(root, mock.url);
    const cancel = new AbortController();
    const pending = client
      .callTool({ name: "run", arguments: { requirement: "anything", mode: "chat" } }, undefined, { signal: cancel.signal })
      .catch((e: Error) => e);
    await waitFor(() => mock.requests.length > 0, "the run to call the model");
    cancel.abort();
    expect(await pending).toBeInstanceOf(Error);
    let threads: { id: string; status: string }[] = [];
    for (let i = 0; i < 100; i++) {
      threads = JSON.parse(text(await client.callTool({ name: "threads", arguments: {} })) || "[]");
      if (threads[0]?.status === "interrupted") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(threads).toEqual([expect.objectContaining({ status: "interrupted" })]);
  });
});
