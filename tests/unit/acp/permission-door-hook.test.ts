import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PermissionQuestion, PermissionDoor } from "../../../src/acp/permission-door.js";

// Runs the hook command as yolo runs a hook (sh -c, the call's JSON on stdin): its exit code and stdout.
function runHook(command: string, call: unknown): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stdin.end(JSON.stringify(call));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** The PreToolUse hook ask mode adds to the user's config hands each edit to yolo acp and prints its answer. */
describe("the ask-mode permission hook", () => {
  it("keeps the user's hooks, asks for the session that ran it, answers as Claude Code's hook JSON, and fails once nobody answers", async () => {
    const asked: PermissionQuestion[] = [];
    const door = new PermissionDoor(process.execPath, async (q) => {
      asked.push(q);
      return q.input.path === "ok.js" ? { allow: true } : { allow: false, reason: "not this file" };
    });
    const mine = { hooks: { PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: "true" }] }] } };
    const home = mkdtempSync(join(tmpdir(), "yolo-user-"));
    const userFile = join(home, "config.json");
    writeFileSync(userFile, JSON.stringify(mine));
    try {
      const env = await door.envFor("yolo-s1", { YOLO_USER_CONFIG: userFile }, { ask: true });
      const config = JSON.parse(readFileSync(env.YOLO_USER_CONFIG ?? "", "utf8"));
      expect(config.hooks.PreToolUse[0]).toEqual(mine.hooks.PreToolUse[0]);
      const ours = config.hooks.PreToolUse[1];
      expect(ours.matcher).toBe("write_file|edit_file|delete_file|run_command");
      const command: string = ours.hooks[0].command;

      const denied = await runHook(command, { tool_name: "write_file", tool_input: { path: "no.js", content: "x" }, tool_use_id: "c1" });
      expect(denied.code).toBe(0);
      expect(JSON.parse(denied.out)).toEqual({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not this file" },
      });
      const allowed = await runHook(command, { tool_name: "edit_file", tool_input: { path: "ok.js" }, tool_use_id: "c2" });
      expect(JSON.parse(allowed.out).hookSpecificOutput.permissionDecision).toBe("allow");
      expect(asked.map((q) => [q.sessionId, q.tool, q.callId])).toEqual([
        ["yolo-s1", "write_file", "c1"],
        ["yolo-s1", "edit_file", "c2"],
      ]);

      door.close();
      const gone = await runHook(command, { tool_name: "write_file", tool_input: { path: "ok.js" }, tool_use_id: "c3" });
      expect(gone.code).not.toBe(0);
    } finally {
      door.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
