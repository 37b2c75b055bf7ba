import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpEditor, texts } from "../helpers/acp-editor.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const REQ = "Add an add(a, b) function to src/add.js";
const SAID = "I read the requirement: one function, add(a, b), in src/add.js, returning the sum of its two arguments.";
const THOUGHT = "The user wants a sum; integers and floats both work with +.";

const thoughts = (updates: SessionUpdate[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? [u.content.text] : [])).join("");

/**
 * The model's words reach the editor as they stream (its thinking as thought chunks), the gate per test, the slash
 * commands answer from the session, and a session the editor held is listed and loaded again by the id
 * `session/new` gave, by a new `yolo acp`, with what it did shown again (its streamed words too). One run for all of it:
 * CI time is short.
 */
describe("yolo acp, streaming, slash commands and a session loaded again", { timeout: 180_000 }, () => {
  it("streams the analyst's words and thinking before its summary; lists the session; answers /gates and /status; a restarted yolo acp replays it", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        // Paced, so the words come in several token batches while the model is still answering.
        analyst: [{ ...analystDone, content: SAID, contentChunks: 6, contentRate: 30, reasoning: THOUGHT }],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const ed = acpEditor(project.root, mock.url, cleanups);
    const sessionId = await ed.use(async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      expect(init.agentCapabilities).toMatchObject({ loadSession: true, sessionCapabilities: { list: {} } });
      const { sessionId } = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      const done = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: REQ }] });
      expect(done._meta, ed.stderr()).toMatchObject({ yolo: { status: "passed", exitCode: 0 } });
      const listed = await ctx.request("session/list", { cwd: project.root });
      expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, cwd: project.root, title: REQ })]);

      // Slash commands, offered once the session exists, answered from the session with no run.
      const offered = ed.updates.find((u) => u.sessionUpdate === "available_commands_update");
      expect(offered && "availableCommands" in offered ? offered.availableCommands.map((c) => c.name) : []).toEqual(["status", "gates", "resume", "eval"]);
      const from = ed.updates.length;
      const models = mock.requests.length;
      await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/gates" }] });
      await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/status" }] });
      const answered = ed.updates.slice(from);
      expect(answered.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
        title: "gate test: latest result",
        status: "completed",
        rawOutput: { passed: true, fixed: ["test/add.test.js"] },
      });
      expect(texts(answered)).toMatch(/^Thread \w+ \(run\): passed\. Mode: auto\.\n$/);
      expect(mock.requests.length).toBe(models);
      return sessionId;
    });

    const chunks = ed.updates.flatMap((u, i) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [{ i, text: u.content.text }] : []));
    const pieces = chunks.filter((c) => c.text.length > 0 && SAID.includes(c.text.replace("_analyst:_ ", "")));
    expect(pieces.length, JSON.stringify(chunks.slice(0, 12))).toBeGreaterThan(1);
    expect(texts(ed.updates)).toContain(`_analyst:_ ${SAID}`);
    const summary = chunks.find((c) => c.text.startsWith("**analyst**"));
    expect(pieces.at(-1)?.i).toBeLessThan(summary?.i ?? -1);
    expect(thoughts(ed.updates)).toBe(THOUGHT);
    // The judged gate run, per test: the baseline's failing test file is fixed, its tests new and passing.
    const judged = ed.updates.find((u) => u.sessionUpdate === "tool_call_update" && /^gate:/.test(u.toolCallId) && !u.toolCallId.endsWith(":baseline"));
    expect(judged, JSON.stringify(judged)).toMatchObject({ rawOutput: { passed: true, regressed: [], stillFailing: [], fixed: ["test/add.test.js"] } });
    expect((judged as { rawOutput: { newPassing: string[] } }).rawOutput.newPassing).toHaveLength(2);

    // The editor restarts: a new yolo acp loads the session by its id and shows what it did.
    const again = acpEditor(project.root, mock.url, cleanups);
    await again.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await ctx.request("session/load", { sessionId, cwd: project.root, mcpServers: [] });
    });
    const shown = again.updates;
    expect(shown[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: REQ } });
    const write = shown.find((u) => u.sessionUpdate === "tool_call" && u.title.includes("write_file"));
    const file = join(project.root, "src/add.js");
    expect(write).toMatchObject({ kind: "edit", locations: [{ path: file }], content: [{ type: "diff", path: file, oldText: null, newText: GOOD_ADD }] });
    expect(shown.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed" && u.toolCallId.startsWith("gate:"))).toBe(true);
    expect(texts(shown)).toMatch(/\*\*dev\*\*: /);
    expect(texts(shown)).toContain("**passed** (exit 0)");
    // The streamed words and thinking are shown again, whole, before the agent's summary.
    expect(texts(shown)).toContain(`_analyst:_ ${SAID}`);
    expect(texts(shown).indexOf(SAID)).toBeLessThan(texts(shown).indexOf("**analyst**"));
    expect(thoughts(shown)).toBe(THOUGHT);
    expect(shown.some((u) => u.sessionUpdate === "available_commands_update")).toBe(true);
  });
});
