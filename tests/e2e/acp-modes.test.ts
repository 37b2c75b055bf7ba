import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpEditor, texts } from "../helpers/acp-editor.js";
import { rolesOf } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI, type RecordedRequest } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");
const EDIT_REASON = "Subtraction is wrong here: return a + b";
const PLAN_REASON = "Say in the story that floats are fine too";
const said = (req: RecordedRequest, words: string) => JSON.stringify(req.messages).includes(words);

/**
 * The modes an editor switches with session/set_mode: ask (each edit waits for a permission request with its diff;
 * a rejection's reason is the tool's result the agent reads; a command runs unasked, the sandbox being on) and plan
 * (agents up to pm's stories, then an approval showing them; a rejection's reason goes back to pm; the waiting plan,
 * loaded again or taken up with /resume in an auto-mode session, is asked about again, never run on past). One yolo
 * acp, two runs.
 */
describe("yolo acp, session modes", { timeout: 240_000 }, () => {
  it("ask: a sandboxed command runs unasked, an edit waits for the editor, a rejection's reason reaches dev; plan: pm's stories wait for approval, a rejection's reason goes back to pm, a reload and /resume show the plan awaiting approval", async () => {
    const project = makeProject();
    const fileAtAsk: (string | null)[] = [];
    const mock = await startMockOpenAI(
      director({
        analyst: [analystDone, analystDone],
        pm: [pmDone(false), pmDone(false), (req) => (said(req, PLAN_REASON) ? pmDone(false) : { status: 400, content: "pm was not told the reason" })],
        dev: [
          // With the sandbox on, its walls are the guard: ask mode runs the command without asking.
          call("run_command", { command: "node --version" }),
          (req) =>
            said(req, process.version)
              ? call("write_file", { path: "src/add.js", content: BAD_ADD })
              : { status: 400, content: "dev did not read the command's output" },
          (req) =>
            said(req, EDIT_REASON) ? call("write_file", { path: "src/add.js", content: GOOD_ADD }) : { status: 400, content: "dev was not told the reason" },
          handoff({ summary: "wrote add", files_changed: ["src/add.js"] }),
        ],
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const file = join(project.root, "src/add.js");
    const answer = (r: RequestPermissionRequest) => {
      fileAtAsk.push(readOrNull(file));
      const edits = asked().filter((a) => a.toolCall.kind === "edit").length;
      if (r.toolCall.kind === "edit") return edits === 1 ? { optionId: "reject", reason: EDIT_REASON } : "allow_always";
      const approvals = asked().length - edits;
      // The second plan is left waiting: approving it runs what the approval test already covers.
      return approvals === 1 ? { optionId: "reject", reason: PLAN_REASON } : "cancelled";
    };
    const ed = acpEditor(project.root, mock.url, cleanups, answer, { env: { YOLO_SANDBOX: "required" } });
    const asked = () => ed.asked;
    await ed.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const made = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      expect(made.modes?.currentModeId).toBe("auto");
      expect(made.modes?.availableModes.map((m) => m.id)).toEqual(["auto", "ask", "plan"]);
      const { sessionId } = made;
      await expect(ctx.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toThrow(/auto, ask, plan/);

      await ctx.request("session/set_mode", { sessionId, modeId: "ask" });
      const asking = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add an add(a, b) function" }] });
      expect(asking._meta, `${ed.stderr()}\n${texts(ed.updates)}`).toMatchObject({ yolo: { status: "passed", exitCode: 0 } });
      const edits = ed.asked.filter((a) => a.toolCall.kind === "edit");
      expect(edits).toHaveLength(2);
      expect(ed.asked.filter((a) => a.toolCall.kind === "execute")).toEqual([]);
      expect(edits[0].toolCall).toMatchObject({ title: "write_file src/add.js", locations: [{ path: file }] });
      expect(edits[0].toolCall.content).toEqual([{ type: "diff", path: file, oldText: null, newText: BAD_ADD }]);
      expect(fileAtAsk.slice(0, 2)).toEqual([null, null]);
      expect(ed.updates).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "auto" });
      expect(readFileSync(file, "utf8")).toBe(GOOD_ADD);

      ed.asked.length = 0;
      await ctx.request("session/set_mode", { sessionId, modeId: "plan" });
      const planned = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Make add take floats" }] });
      expect(planned._meta, `${ed.stderr()}\n${texts(ed.updates)}`).toMatchObject({ yolo: { status: "waiting", exitCode: 3 } });
      expect(ed.asked).toHaveLength(2);
      for (const ask of ed.asked) {
        expect(ask.toolCall.title).toBe("Approve pm's output so the run goes on?");
        expect(JSON.stringify(ask.toolCall.content)).toContain("Add numbers");
      }

      // The waiting plan, taken up again: the session loaded anew from its record, and the thread by /resume in a
      // session in auto mode. Each shows the plan awaiting approval (dismissed again: the thread keeps waiting).
      const thread = (planned._meta as { yolo: { threadId: string } }).yolo.threadId;
      const before = ed.asked.length;
      const loaded = await ctx.request("session/load", { sessionId, cwd: project.root, mcpServers: [] });
      expect(loaded.modes?.currentModeId).toBe("auto");
      const other = (await ctx.request("session/new", { cwd: project.root, mcpServers: [] })).sessionId;
      const resumed = await ctx.request("session/prompt", { sessionId: other, prompt: [{ type: "text", text: `/resume ${thread}` }] });
      expect(resumed._meta, `${ed.stderr()}\n${texts(ed.updates)}`).toMatchObject({ yolo: { threadId: thread, status: "waiting", exitCode: 3 } });
      const again = ed.asked.slice(before);
      expect(again.map((a) => a.sessionId)).toEqual([sessionId, other]);
      for (const ask of again) {
        expect(ask.toolCall.title).toBe("Approve pm's output so the run goes on?");
        expect(JSON.stringify(ask.toolCall.content)).toContain("Add numbers");
      }
    });
    // pm was asked again with the reason (its script says so), and no dev of the plan-mode run was: nothing was built.
    expect(rolesOf(mock).filter((r) => r === "pm")).toHaveLength(3);
    expect(rolesOf(mock).filter((r) => r === "dev")).toHaveLength(4);
  });
});

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
