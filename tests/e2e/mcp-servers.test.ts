import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { call, handoff } from "../helpers/director.js";
import { lastToolResults, textOf } from "../helpers/mock-openai.js";
import { startMcpHttpServer } from "../helpers/mcp-http-server.js";
import { mockWith, project } from "../helpers/per-test.js";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
const FILESYSTEM = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));
const SCRIPTED = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));
const node = JSON.stringify(process.execPath);

const AGENT = `---
name: Helper
description: Uses MCP tools.
tools: [read_file, mcp__everything, mcp__fs__read_text_file, mcp__web__shout]
---
You are the helper agent. Use your tools.
`;

// The tool results the model read on the request after the one that called them.
const resultsOf = (req: Parameters<typeof lastToolResults>[0]) => lastToolResults(req).map((m) => textOf(m.content));

describe("MCP servers through the built binary", () => {
  it("an agent calls server-everything and server-filesystem over stdio and a server over streamable HTTP, with results the model can read", async () => {
    const web = await startMcpHttpServer();
    onTestFinished(() => web.close());
    const root = project(onTestFinished, {
      "agents/helper.md": AGENT,
      "notes.txt": "the notes say hello\n",
      "yolo.config.ts": `export default { mcpServers: {
        everything: { command: ${node}, args: [${JSON.stringify(EVERYTHING)}] },
        web: { type: "http", url: ${JSON.stringify(web.url)}, headers: { Authorization: "Bearer \${WEB_TOKEN}" } },
      } };\n`,
      // Read as Claude Code reads it: the project's .mcp.json.
      ".mcp.json": JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, "."] } } }),
    });
    const mock = await mockWith(
      onTestFinished,
      (_req, i) =>
        [
          call("mcp__everything__echo", { message: "hi from yolo" }),
          call("mcp__everything__get-sum", { a: 2, b: 40 }),
          call("mcp__fs__read_text_file", { path: "@project/notes.txt" }),
          call("mcp__web__shout", { text: "quiet" }),
          call("mcp__everything__get-env", {}),
          handoff({ summary: "used the tools" }),
        ][i] ?? { status: 400, content: "no more turns" },
    );
    const r = await runYolo(["agent", "--json", "helper", "use your tools"], {
      cwd: root,
      baseURL: mock.url,
      env: { WEB_TOKEN: "web-token-0123456789", OPENAI_API_KEY: "sk-e2e-key-0123456789" },
    });
    expect(r.exitCode, describeResult(r)).toBe(0);

    // The model was offered the allowed tools, named as the other CLIs name them, and nothing else from the servers.
    const offered = mock.requests[0].tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toContain("mcp__everything__echo");
    expect(offered).toContain("mcp__fs__read_text_file");
    expect(offered).toContain("mcp__web__shout");
    expect(offered).not.toContain("mcp__fs__write_file");
    expect(offered).not.toContain("write_file");

    expect(resultsOf(mock.requests[1])[0]).toContain("Echo: hi from yolo");
    expect(resultsOf(mock.requests[2])[0]).toContain("42");
    expect(resultsOf(mock.requests[3])[0]).toContain("the notes say hello");
    expect(resultsOf(mock.requests[4])[0]).toContain("QUIET");
    expect(web.authorizations).toContain("Bearer web-token-0123456789");
    // server-everything's get-env shows its whole environment: the API key never got there.
    const env = resultsOf(mock.requests[5])[0];
    expect(env).toContain("PATH");
    expect(env).not.toContain("sk-e2e-key-0123456789");
    // Real paths never reach the model: the project root is @project in every message.
    expect(JSON.stringify(mock.requests.map((q) => q.messages))).not.toContain(root);

    const events = parseEvents(r.stdout);
    const called = events.filter((e) => e.type === "tool.called").map((e) => (e as { tool: string }).tool);
    expect(called).toEqual([
      "mcp__everything__echo",
      "mcp__everything__get-sum",
      "mcp__fs__read_text_file",
      "mcp__web__shout",
      "mcp__everything__get-env",
      "handoff",
    ]);
    expect(events.filter((e) => e.type === "tool.result" && !e.ok)).toEqual([]);
  });

  it("a server that answers with the API key or a project secret: the model reads [redacted]", async () => {
    const key = "sk-e2e-key-abcdef0123456789";
    const root = project(onTestFinished, {
      ".env": "DB_PASSWORD=hunter2-very-secret-pw\n",
      "agents/helper.md": "---\nname: Helper\ndescription: d\ntools: [mcp__talk]\n---\nYou are the helper agent.\n",
      "yolo.config.ts": `export default { mcpServers: { talk: { command: ${node}, args: [${JSON.stringify(SCRIPTED)}, "say", "key=${key} db=hunter2-very-secret-pw"] } } };\n`,
    });
    const mock = await mockWith(onTestFinished, (_req, i) => [call("mcp__talk__say", {}), handoff({ summary: "done" })][i] ?? { status: 400 });
    const r = await runYolo(["agent", "--json", "helper", "talk"], { cwd: root, baseURL: mock.url, env: { OPENAI_API_KEY: key } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const seen = resultsOf(mock.requests[1])[0];
    expect(seen).toContain("key=[redacted] db=[redacted]");
    expect(JSON.stringify(mock.requests.map((q) => q.messages))).not.toMatch(/hunter2|sk-e2e-key/);
    expect(r.stdout).not.toMatch(/hunter2|sk-e2e-key/);
  });

  it("chat is offered only the MCP tools their servers mark read-only", async () => {
    const root = project(onTestFinished, {
      "yolo.config.ts": `export default { mcpServers: { s: { command: ${node}, args: [${JSON.stringify(SCRIPTED)}, "ok"] } } };\n`,
    });
    const mock = await mockWith(onTestFinished, () => ({ content: "an answer" }));
    const r = await runYolo(["chat", "--json", "what is here?"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const offered = mock.requests[0].tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered.filter((n: string) => n.startsWith("mcp__"))).toEqual(["mcp__s__readonly_peek"]);
  });

  it("a required server that fails to start stops the run with exit 2 and an error event naming it and its stderr; optional goes on with a warning", async () => {
    const root = project(onTestFinished, {
      "yolo.config.ts": `export default { mcpServers: { db: { command: ${node}, args: [${JSON.stringify(SCRIPTED)}, "crash"] } } };\n`,
    });
    const mock = await mockWith(onTestFinished, () => ({ content: "an answer" }));
    const r = await runYolo(["chat", "--json", "hi"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(2);
    const events = parseEvents(r.stdout);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ code: "config", message: expect.stringContaining('MCP server "db" (yolo.config.ts) did not start') });
    expect((error as { message: string }).message).toContain("cannot open database /var/lib/nothing.db");
    expect(events.at(-1)).toMatchObject({ type: "run.completed", exitCode: 2 });
    expect(mock.requests).toHaveLength(0);

    writeFileSync(
      join(root, "yolo.config.ts"),
      `export default { mcpServers: { db: { command: ${node}, args: [${JSON.stringify(SCRIPTED)}, "crash"], optional: true } } };\n`,
    );
    // The user's own edit, trusted as a user must before the next command runs it.
    expect((await runYolo(["config", "trust"], { cwd: root })).exitCode).toBe(0);
    const ok = await runYolo(["chat", "--json", "hi"], { cwd: root, baseURL: mock.url });
    expect(ok.exitCode, describeResult(ok)).toBe(0);
    expect(parseEvents(ok.stdout)).toContainEqual(expect.objectContaining({ type: "warning", message: expect.stringContaining("It is optional") }));
  });

  it("an agent file naming a malformed MCP entry is refused before anything runs", async () => {
    const root = project(onTestFinished, { "agents/helper.md": AGENT.replace("mcp__web__shout", "mcp__bad name") });
    const r = await runYolo(["agent", "helper", "hi"], { cwd: root, baseURL: "http://127.0.0.1:9/v1" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"mcp__bad name" is not an MCP tool name; write mcp__<server> (all its tools) or mcp__<server>__<tool>');
  });
});
