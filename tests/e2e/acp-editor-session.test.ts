import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpEditor, texts } from "../helpers/acp-editor.js";
import { deferred, rolesOf, waitFor } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const REQ = "Add an add(a, b) function to src/add.js";
const QUESTION = "Integers only, or floats too?";

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

  it("an approval the run waits on is a permission request; the answer lets the run go on in the same turn; cancel stops a run", async () => {
    const project = makeProject({ "yolo.config.ts": 'export default { approve: ["pm"] };\n' });
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone, analystDone],
        pm: [pmDone(false), { ...pmDone(false), hold: held.promise }, pmDone(false)],
        dev: [...devWrites(GOOD_ADD), ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS"), teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const ed = acpEditor(project.root, mock.url, cleanups);
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

      // The next prompt continues the stopped thread from its checkpoint, and says so.
      ed.updates.length = 0;
      const thread = (cancelled._meta as { yolo: { threadId: string } }).yolo.threadId;
      const continued = await ctx.request("session/prompt", { sessionId: second.sessionId, prompt: [{ type: "text", text: "go on" }] });
      expect(texts(ed.updates)).toContain(`Continuing thread ${thread} from its last checkpoint`);
      expect(continued._meta, ed.stderr()).toMatchObject({ yolo: { threadId: thread, status: "passed", exitCode: 0 } });
      expect(ed.asked).toHaveLength(2);
    });
  });
});
