import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpEditor } from "../helpers/acp-editor.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

// Well past the 200 characters an event's `args` keeps: the path is at its end, after the content.
const TABLE = `export const table = [\n${Array.from({ length: 60 }, (_, i) => `  { id: ${i}, name: "row number ${i}" },`).join("\n")}\n];\n`;
const OLD = `  { id: 41, name: "row number 41" },`;
const NEW = `  { id: 41, name: "the answer" },`;

type ToolCall = Extract<SessionUpdate, { sessionUpdate: "tool_call" }>;

/** Each edit tool call shows the editor its file and a diff built from the call's whole arguments. */
describe("yolo acp, an edit tool call", { timeout: 240_000 }, () => {
  it("a long write_file and an edit_file carry their path in locations and a diff with the full texts", async () => {
    expect(TABLE.length).toBeGreaterThan(1024);
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone],
        pm: [pmDone(false)],
        dev: [
          // `content` before `path`, as models often write it: a cut preview would keep neither the path nor the end.
          call("write_file", { content: TABLE, path: "src/table.js" }),
          call("edit_file", { path: "src/table.js", old_string: OLD, new_string: NEW }),
          ...devWrites(GOOD_ADD),
        ],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const ed = acpEditor(project.root, mock.url, cleanups);
    const abs = join(project.root, "src/table.js");
    await ed.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      const done = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add a table and an add function" }] });
      expect(done._meta, ed.stderr()).toMatchObject({ yolo: { status: "passed" } });
    });
    const calls = ed.updates.filter((u): u is ToolCall => u.sessionUpdate === "tool_call" && u.kind === "edit");
    const write = calls.find((u) => u.title.includes("write_file") && u.title.includes("src/table.js"));
    expect(write, JSON.stringify(calls, null, 1)).toBeDefined();
    expect(write?.locations).toEqual([{ path: abs }]);
    expect(write?.content).toEqual([{ type: "diff", path: abs, oldText: null, newText: TABLE }]);
    const edit = calls.find((u) => u.title.includes("edit_file"));
    expect(edit?.locations).toEqual([{ path: abs }]);
    expect(edit?.content).toEqual([{ type: "diff", path: abs, oldText: OLD, newText: NEW }]);
  });
});
