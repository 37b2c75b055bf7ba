import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { RequestPermissionRequest, ToolCallContent } from "@agentclientprotocol/sdk";
import type { PermissionAnswer, PermissionQuestion } from "./permission-door.js";
import type { AcpSession } from "./prompt-turn.js";

/** Files over this are not read for the "before" side of a permission's diff (the editor has the file itself). */
const OLD_TEXT_CAP = 256 * 1024;

/**
 * Asks the editor's user about one call of an ask-mode session: an edit with its file and diff, or a command that
 * would run outside the sandbox's guarantees (the run has no sandbox: `sandbox: "off"`, or `auto` without
 * bubblewrap; with one, its walls are the guard and the command runs unasked). Three choices: allow it, allow every
 * call from now on (the session turns to auto mode, and says so), or reject it. A rejection reaches the agent as the
 * call's result, with the reason the editor gave in the answer's `_meta.reason`, where it gives one (ACP's answer has
 * no field for words). A session that is no longer in ask mode, or has no turn, lets it run.
 */
export async function askCall(session: AcpSession | undefined, q: PermissionQuestion): Promise<PermissionAnswer> {
  if (session?.permission !== "ask" || !session.client || !session.turn) return { allow: true };
  const command = q.tool === "run_command" ? String(q.input.command ?? "") : null;
  if (command !== null && session.sandboxed) return { allow: true };
  const what = command !== null ? `run_command \`${command}\`` : `${q.tool} of ${String(q.input.path ?? "")}`;
  const request: RequestPermissionRequest = {
    sessionId: session.id,
    toolCall: { toolCallId: session.calls.get(q.callId) ?? q.callId, ...(command !== null ? commandCall(command, q) : editCall(session, q)) },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "allow_always", name: "Allow all (auto mode)", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  };
  const signal = session.turn.signal;
  const answer = await session.client
    .request("session/request_permission", request, { cancellationSignal: signal, stopWaitingOnCancel: true })
    .catch(() => null);
  if (answer?.outcome.outcome !== "selected") return { allow: false, reason: "The turn was cancelled in the editor; nothing was changed." };
  if (answer.outcome.optionId === "allow") return { allow: true };
  if (answer.outcome.optionId === "allow_always") {
    session.permission = "auto";
    await session.client.notify("session/update", { sessionId: session.id, update: { sessionUpdate: "current_mode_update", currentModeId: "auto" } });
    return { allow: true };
  }
  const given = (answer._meta as { reason?: unknown } | null | undefined)?.reason;
  const reason =
    typeof given === "string" && given.trim() ? `: ${given.trim()}` : ". Do not do this again; take another way, or hand off saying why it is needed.";
  return { allow: false, reason: `The user rejected this ${what} in the editor${reason}` };
}

type AskedCall = Omit<RequestPermissionRequest["toolCall"], "toolCallId">;

// An edit as the editor shows it: its file and the diff.
function editCall(session: AcpSession, q: PermissionQuestion): AskedCall {
  const path = typeof q.input.path === "string" ? q.input.path : "";
  const abs = isAbsolute(path) ? path : join(session.cwd, path);
  const content = path ? [editDiff(q, abs)] : [];
  return {
    title: `${q.tool} ${path}`,
    kind: q.tool === "delete_file" ? "delete" : "edit",
    status: "pending",
    locations: path ? [{ path: abs }] : [],
    content,
    rawInput: q.input,
  };
}

// A command as the editor shows it: its words, and that it would run without the sandbox.
function commandCall(command: string, q: PermissionQuestion): AskedCall {
  const text = `${command}\n\n(This run has no sandbox: the command runs with your user's rights.)`;
  return {
    title: `run_command ${command}`,
    kind: "execute",
    status: "pending",
    content: [{ type: "content", content: { type: "text", text } }],
    rawInput: q.input,
  };
}

// The change as ACP's diff: the file's text now (null: a new file) and after.
function editDiff(q: PermissionQuestion, abs: string): ToolCallContent {
  const text = (key: string) => (typeof q.input[key] === "string" ? (q.input[key] as string) : "");
  if (q.tool === "edit_file") return { type: "diff", path: abs, oldText: text("old_string"), newText: text("new_string") };
  const before = current(abs);
  return { type: "diff", path: abs, oldText: before, newText: q.tool === "delete_file" ? "" : text("content") };
}

function current(abs: string): string | null {
  try {
    const text = readFileSync(abs, "utf8");
    return text.length > OLD_TEXT_CAP ? null : text;
  } catch {
    return null;
  }
}
