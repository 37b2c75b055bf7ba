import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { call, handoff } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const SCRIPTED = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));
const AGENT = "---\nname: Helper\ndescription: d\ntools: [mcp__s__echo, mcp__s__path]\n---\nYou are the helper agent.\n";
const config = (command: string) =>
  `export default { mcpServers: { s: { command: ${JSON.stringify(command)}, args: [${JSON.stringify(SCRIPTED)}, "ok"] } } };\n`;

describe("--record / --replay cover MCP calls", () => {
  it("records tool lists and call results beside the session; a replay in another checkout serves them without starting the server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-mcp-session-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const session = join(dir, "session.jsonl");
    const recorded = project(onTestFinished, { "agents/helper.md": AGENT, "yolo.config.ts": config(process.execPath) });
    const mock = await mockWith(
      onTestFinished,
      (_req, i) =>
        [call("mcp__s__echo", { text: "recorded words" }), call("mcp__s__path", { path: "@project/a.txt" }), handoff({ summary: "echoed" })][i] ?? {
          status: 400,
        },
    );
    const first = await runYolo(["agent", "--json", "--record", session, "helper", "echo"], { cwd: recorded, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(0);
    const lines = readFileSync(join(dir, "session.mcp.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => `${l.kind}:${l.tool ?? l.server}`)).toEqual(["tools:s", "call:echo", "call:path"]);
    // Stored with @project, so the recording replays from any checkout.
    expect(JSON.stringify(lines)).not.toContain(recorded);
    expect(lines[2].args).toEqual({ path: "@project/a.txt" });

    // Another checkout, where the server's command does not even exist: nothing is started, the results come from the file.
    const replayed = project(onTestFinished, { "agents/helper.md": AGENT, "yolo.config.ts": config("/nonexistent/mcp-server") });
    const second = await runYolo(["agent", "--json", "--replay", session, "helper", "echo"], { cwd: replayed });
    expect(second.exitCode, describeResult(second)).toBe(0);
    const results = parseEvents(second.stdout).filter((e) => e.type === "tool.result");
    expect(results.map((e) => [e.tool, e.ok])).toEqual([
      ["mcp__s__echo", true],
      ["mcp__s__path", true],
      ["handoff", true],
    ]);
  });

  it("a replay whose MCP recording is missing leaves the servers out with a warning, and the model-side mismatch says what differs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-mcp-session-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const session = join(dir, "session.jsonl");
    const root = project(onTestFinished, { "yolo.config.ts": config(process.execPath) });
    const mock = await mockWith(onTestFinished, () => ({ content: "plain answer" }));
    const first = await runYolo(["chat", "--record", session, "hi"], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(0);
    rmSync(join(dir, "session.mcp.jsonl"));
    writeFileSync(join(root, "yolo.config.ts"), config("/nonexistent/mcp-server"));
    // The user's own change: trusted before it runs (config-trust.ts).
    expect((await runYolo(["config", "trust"], { cwd: root })).exitCode).toBe(0);
    const second = await runYolo(["chat", "--json", "--replay", session, "hi"], { cwd: root });
    // The recorded model was offered the server's read-only tool; the replayed one is not: the session does not match.
    expect(second.exitCode, describeResult(second)).toBe(5);
    const events = parseEvents(second.stdout);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "warning",
        message: 'MCP server "s" is not in the recording being replayed: its tools are not available in this replay',
      }),
    );
    expect(events.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("mcp__s__readonly_peek") });
  });
});
