import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpEditor, texts } from "../helpers/acp-editor.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { analystDone, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { lastToolResults, type RecordedRequest, startMockOpenAI, textOf } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach("lastFirst");
const SCRIPTED = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));
const UNSAVED = "// only in the editor's buffer, not saved\n";
const COMMAND_REASON = "No commands outside a sandbox today";

// A project dev that may use the editor's MCP server "ed" (an agent lists MCP tools by name).
const DEV = `---
name: Developer
description: Implements the stories.
tools: [read_file, write_file, edit_file, run_command, mcp__ed__echo]
---
You are the dev agent. Implement the stories.
`;

// The commit that added add (the run's write), and a one-task file for it: its tests fail before it and pass after.
function writeTask(root: string): void {
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
  git("add", "src/add.js");
  git("commit", "-qm", "Add an add(a, b) function");
  const task = {
    v: 1,
    id: "add",
    commit: git("rev-parse", "HEAD"),
    parent: git("rev-parse", "HEAD~1"),
    requirement: "Add an add(a, b) function to src/add.js",
    testFiles: ["test/add.test.js"],
    sourceFiles: ["src/add.js"],
    gates: [{ name: "test", command: "node --test test/", required: true, timeoutS: 120 }],
    targets: ["test: adds two numbers", "test: adds negatives"],
    guards: [],
  };
  mkdirSync(join(root, ".yolo", "eval"), { recursive: true });
  writeFileSync(join(root, ".yolo", "eval", "tiny.jsonl"), `${JSON.stringify(task)}\n`);
}

// dev's next turn, once the result it reads says `words`; a 400 naming what was missing otherwise.
const onceRead =
  (words: string, next: Turn): Turn =>
  (req: RecordedRequest) => {
    const read = lastToolResults(req)
      .map((m) => textOf(m.content))
      .join("\n");
    if (!read.includes(words)) return { status: 400, content: `dev did not read "${words}"; it read: ${read}` };
    return typeof next === "function" ? next(req) : next;
  };

/**
 * An editor that offers its file system and passes MCP servers, in ask mode, on a machine whose runs have no sandbox:
 * dev reads the unsaved buffer, calls the editor's stdio server, has its command asked about and rejected (the
 * reason is its result), and writes through the editor; the remote server is refused by name. One run; then a
 * second session's slash commands take its thread up (/resume) and run yolo eval (/eval) on a task made from it.
 */
describe("yolo acp, the editor's files, MCP servers and commands", { timeout: 120_000 }, () => {
  it("reads buffers, writes through fs/write_text_file, starts the stdio server, refuses the http one, asks before an unsandboxed command; /resume and /eval", async () => {
    const project = makeProject({ "agents/dev.md": DEV, "src/add.js": "// on disk\n" });
    const file = join(project.root, "src/add.js");
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone, analystDone],
        pm: [pmDone(false), pmDone(false)],
        dev: [
          call("read_file", { path: "src/add.js" }),
          onceRead(UNSAVED, call("mcp__ed__echo", { text: "hello from dev" })),
          onceRead("hello from dev", call("run_command", { command: "node --version" })),
          onceRead(COMMAND_REASON, call("write_file", { path: "src/add.js", content: GOOD_ADD })),
          onceRead("src/add.js", handoff({ summary: "wrote add", files_changed: ["src/add.js"] })),
          // The eval task's run, in its worktree at the commit before the one that added add.
          ...devWrites(GOOD_ADD),
        ],
        tea: [teaSays("PASS"), teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const writes: { path: string; content: string }[] = [];
    const files = {
      read: (path: string) => (path === file ? UNSAVED : readFileSync(path, "utf8")),
      write: (path: string, content: string) => {
        writes.push({ path, content });
        writeFileSync(path, content);
      },
    };
    const answer = (r: RequestPermissionRequest) => (r.toolCall.kind === "execute" ? { optionId: "reject", reason: COMMAND_REASON } : "allow");
    let thread = "";
    const ed = acpEditor(project.root, mock.url, cleanups, answer, { env: { YOLO_SANDBOX: "off" }, files });
    await ed.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
      const { sessionId } = await ctx.request("session/new", {
        cwd: project.root,
        mcpServers: [
          { name: "ed", command: process.execPath, args: [SCRIPTED, "ok"], env: [] },
          { type: "http", name: "remote", url: "http://127.0.0.1:9/mcp", headers: [] },
        ],
      });
      await ctx.request("session/set_mode", { sessionId, modeId: "ask" });
      const done = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add an add(a, b) function" }] });
      expect(done._meta, `${ed.stderr()}\n${texts(ed.updates)}`).toMatchObject({ yolo: { status: "passed", exitCode: 0 } });
      thread = (done._meta as { yolo: { threadId: string } }).yolo.threadId;

      // A second session takes the thread up with /resume; /eval lists task files, or runs yolo eval on one.
      const other = (await ctx.request("session/new", { cwd: project.root, mcpServers: [] })).sessionId;
      const slash = async (text: string) => {
        const from = ed.updates.length;
        await ctx.request("session/prompt", { sessionId: other, prompt: [{ type: "text", text }] });
        return texts(ed.updates.slice(from));
      };
      const resumed = await slash(`/resume ${thread}`);
      expect(resumed).toContain("**dev**: 1 file changed: wrote add");
      expect(resumed).toContain(`Resumed thread ${thread}. It has ended: the next prompt starts a new run.`);
      expect(await slash("/status")).toContain(`Thread ${thread} (run): passed.`);
      expect(await slash("/eval")).toContain("no task files under .yolo/eval/");
      expect(await slash("/eval missing.jsonl")).toContain("Cannot read the task file");

      // A task from the project's own history (the commit that added add), run by /eval as from a terminal.
      writeTask(project.root);
      expect(await slash("/eval")).toContain("Task files: .yolo/eval/tiny.jsonl.");
      const from = ed.updates.length;
      const evaluated = await ctx.request("session/prompt", { sessionId: other, prompt: [{ type: "text", text: "/eval .yolo/eval/tiny.jsonl" }] });
      const said = texts(ed.updates.slice(from));
      expect(evaluated._meta, said).toMatchObject({ yolo: { exitCode: 0 } });
      expect(said).toContain("Running `yolo eval --tasks .yolo/eval/tiny.jsonl`");
      expect(said).toMatch(/\badd: resolved \(every target \(2\) and guard \(0\) passes\)/);
      expect(said).toMatch(/: 1\/1 resolved \(100%/);
    });
    expect(texts(ed.updates)).toContain("not started: remote (http http://127.0.0.1:9/mcp)");
    const command = ed.asked.filter((a) => a.toolCall.kind === "execute");
    expect(command).toHaveLength(1);
    expect(command[0].toolCall.title).toBe("run_command node --version");
    expect(ed.asked.filter((a) => a.toolCall.kind === "edit")).toHaveLength(1);
    expect(writes).toEqual([{ path: file, content: GOOD_ADD }]);
    expect(readFileSync(file, "utf8")).toBe(GOOD_ADD);
  });
});
