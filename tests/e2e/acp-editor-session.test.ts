import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpEditor, texts } from "../helpers/acp-editor.js";
import { deferred, rolesOf, waitFor } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { lastToolResults, type RecordedRequest, startMockOpenAI, textOf } from "../helpers/mock-openai.js";
import { rawMcpServerSource } from "../helpers/raw-mcp-server.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const REQ = "Add an add(a, b) function to src/add.js";
const QUESTION = "Integers only, or floats too?";

// A project dev that may use the editor's MCP server "ed" (an agent lists MCP tools by name).
const DEV = `---
name: Developer
description: Implements the stories.
tools: [read_file, write_file, edit_file, run_command, mcp__ed__read_text_file]
---
You are the dev agent. Implement the stories.
`;

// dev's next turn once the last tool result it read says \`words\`; a 400 naming what it read otherwise.
const onceRead =
  (words: string, next: Turn): Turn =>
  (req: RecordedRequest) => {
    const read = lastToolResults(req)
      .map((m) => textOf(m.content))
      .join("\n");
    if (!read.includes(words)) return { status: 400, content: `dev did not read "${words}"; it read: ${read}` };
    return typeof next === "function" ? next(req) : next;
  };

describe("yolo acp, driven by the ACP SDK's client", { timeout: 180_000 }, () => {
  it("a prompt is a run: agents' messages, tool calls with the files they change, the plan, and the outcome ending the turn; a question is answered by the next prompt; load takes a thread up again", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ escalate_to_human: true, question: QUESTION }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const ed = acpEditor(project.root, mock.url, cleanups);
    await ed.use(async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const { sessionId } = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });

      const asking = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: REQ }] });
      expect(asking.stopReason).toBe("end_turn");
      expect(asking._meta).toMatchObject({ yolo: { status: "waiting", exitCode: 3 } });
      expect(texts(ed.updates)).toContain(`asks: ${QUESTION}`);
      const thread = (asking._meta as { yolo: { threadId: string } }).yolo.threadId;

      // Another session takes the waiting thread up with /resume: its steps, then its question again.
      const other = (await ctx.request("session/new", { cwd: project.root, mcpServers: [] })).sessionId;
      ed.updates.length = 0;
      const resumed = await ctx.request("session/prompt", { sessionId: other, prompt: [{ type: "text", text: `/resume ${thread}` }] });
      expect(resumed._meta, ed.stderr()).toMatchObject({ yolo: { threadId: thread, status: "waiting", exitCode: 3 } });
      expect(texts(ed.updates)).toContain(`Thread ${thread} (run): waiting.`);
      expect(texts(ed.updates)).toContain(QUESTION);

      ed.updates.length = 0;
      const done = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Integers only." }] });
      expect(done._meta, ed.stderr()).toMatchObject({ yolo: { threadId: thread, status: "passed", exitCode: 0 } });
      expect(mock.requests.some((r) => JSON.stringify(r.messages).includes("Integers only."))).toBe(true);
      const write = ed.updates.find((u) => u.sessionUpdate === "tool_call" && u.title.includes("write_file"));
      expect(write).toMatchObject({ kind: "edit", status: "in_progress", locations: [{ path: join(project.root, "src/add.js") }] });
      const written = ed.updates.find((u) => u.sessionUpdate === "tool_call_update" && write && u.toolCallId === (write as { toolCallId: string }).toolCallId);
      expect(written).toMatchObject({ status: "completed", locations: [{ path: join(project.root, "src/add.js") }] });
      expect(ed.updates.some((u) => u.sessionUpdate === "tool_call" && u.kind === "execute" && u.title.startsWith("gate test"))).toBe(true);
      const plans = ed.updates.filter((u) => u.sessionUpdate === "plan");
      expect(plans.at(-1)).toMatchObject({ entries: expect.arrayContaining([{ content: "dev", priority: "medium", status: "completed" }]) });
      expect(texts(ed.updates)).toMatch(/\*\*dev\*\*: /);
      expect(texts(ed.updates)).toContain("**passed** (exit 0)");
      expect(texts(ed.updates)).toContain("Files changed: src/add.js");
      expect(readFileSync(join(project.root, "src/add.js"), "utf8")).toBe(GOOD_ADD);

      // Another session takes the thread up by its id.
      ed.updates.length = 0;
      await ctx.request("session/load", { sessionId: thread, cwd: project.root, mcpServers: [] });
      expect(texts(ed.updates)).toContain(`Thread ${thread} (run): passed.`);
      await expect(ctx.request("session/load", { sessionId: "nosuchthread", cwd: project.root, mcpServers: [] })).rejects.toThrow();
    });
  });

  it("an approval the run waits on is a permission request; cancel stops a run; session/load with the editor's MCP server takes the stopped thread up, the server in the sandbox", async () => {
    const project = makeProject({ "yolo.config.ts": 'export default { approve: ["pm"] };\n', "agents/dev.md": DEV });
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone, analystDone],
        pm: [pmDone(false), { ...pmDone(false), hold: held.promise }, pmDone(false)],
        // The second run's dev reads the README through the editor's server before it writes.
        dev: [
          ...devWrites(GOOD_ADD),
          call("mcp__ed__read_text_file", { path: "@project/README.md" }),
          onceRead("# demo", devWrites(GOOD_ADD)[0]),
          devWrites(GOOD_ADD)[1],
        ],
        tea: [teaSays("PASS"), teaSays("PASS")],
      }),
    );
    const serverDir = mkdtempSync(join(tmpdir(), "yolo-editor-server-"));
    writeFileSync(join(serverDir, "notes-server.mjs"), rawMcpServerSource());
    cleanups.push(
      project.cleanup,
      () => mock.close(),
      held.release,
      () => rmSync(serverDir, { recursive: true, force: true }),
    );
    // A server the editor passes, its file under /tmp (which the sandbox shows empty but for it).
    const editorServer = { name: "ed", command: process.execPath, args: [join(serverDir, "notes-server.mjs")], env: [] };
    const ed = acpEditor(project.root, mock.url, cleanups, undefined, { env: { YOLO_SANDBOX: "required" } });
    await ed.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      const done = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: REQ }] });
      expect(ed.asked).toHaveLength(1);
      expect(ed.asked[0].options.map((o) => o.optionId)).toEqual(["approve", "reject"]);
      expect(done._meta, ed.stderr()).toMatchObject({ yolo: { status: "passed", exitCode: 0 } });

      // A new run in another session, cancelled while pm's answer is held.
      const second = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      const turn = ctx.request("session/prompt", { sessionId: second.sessionId, prompt: [{ type: "text", text: "Another change" }] });
      await waitFor(() => rolesOf(mock).filter((r) => r === "pm").length === 2, "the second run's pm request");
      await ctx.notify("session/cancel", { sessionId: second.sessionId });
      const cancelled = await turn;
      expect(cancelled.stopReason).toBe("cancelled");
      expect(cancelled._meta).toMatchObject({ yolo: { status: "interrupted", exitCode: 130 } });
      held.release();

      // The stopped thread loaded by its id with the editor's server: the next prompt continues it from its
      // checkpoint, says so, and its dev reads through the server, started in the sandbox.
      const thread = (cancelled._meta as { yolo: { threadId: string } }).yolo.threadId;
      ed.updates.length = 0;
      await ctx.request("session/load", { sessionId: thread, cwd: project.root, mcpServers: [editorServer] });
      expect(texts(ed.updates)).toContain(`Thread ${thread} (run): interrupted.`);
      const continued = await ctx.request("session/prompt", { sessionId: thread, prompt: [{ type: "text", text: "go on" }] });
      expect(texts(ed.updates)).toContain(`Continuing thread ${thread} from its last checkpoint`);
      expect(continued._meta, `${ed.stderr()}\n${texts(ed.updates)}`).toMatchObject({ yolo: { threadId: thread, status: "passed", exitCode: 0 } });
      expect(ed.asked).toHaveLength(2);
    });
    const started = JSON.stringify(ed.updates.find((u) => JSON.stringify(u).includes("mcp__ed__read_text_file")));
    expect(started, texts(ed.updates)).toContain("mcp__ed__read_text_file");
  });
});
