import type { AgentContext, AvailableCommand, PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { refusalText } from "./editor-mcp.js";
import { gateResult } from "./gate-update.js";
import { evalTasks, resumeThread, type SlashContext } from "./slash-resume-eval.js";
import type { AcpSession } from "./prompt-turn.js";
import { readRecord } from "./session-record.js";

/** The commands the editor offers after `/`; each is answered from what the session knows, with no run. */
export const SLASH_COMMANDS: AvailableCommand[] = [
  { name: "status", description: "Where the session's thread stands: its id, status, what it waits on, the session's mode" },
  { name: "gates", description: "The latest result of each gate in the session's thread, per test (fixed, regressed, still failing)" },
  { name: "resume", description: "Take up an earlier thread of this project (one the CLI ran too)", input: { hint: "thread id" } },
  { name: "eval", description: "Run yolo eval on a task file of this project (none: list them)", input: { hint: "task file and models" } },
];

/** Tells the editor which slash commands the session has, and which of the MCP servers it passed are not started. */
export async function announceCommands(session: AcpSession, client: AgentContext, refused: string[] = []): Promise<void> {
  await client.notify("session/update", { sessionId: session.id, update: { sessionUpdate: "available_commands_update", availableCommands: SLASH_COMMANDS } });
  if (refused.length) await client.notify("session/update", { sessionId: session.id, update: say(refusalText(refused)) });
}

/** Answers a prompt that is one of the slash commands (null for any other prompt): its updates, then the turn's end. */
export async function slashCommand(session: AcpSession, text: string, client: AgentContext, ctx: () => Promise<SlashContext>): Promise<PromptResponse | null> {
  const [, command, rest] = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text.trim()) ?? [];
  const words = (rest ?? "").split(/\s+/).filter(Boolean);
  if (command === "resume") return resumeThread(session, words[0] ?? "", client, await ctx());
  if (command === "eval") return evalTasks(session, words, client, await ctx());
  const name = words.length ? undefined : command;
  const updates = name === "status" ? [say(statusText(session))] : name === "gates" ? gateUpdates(session) : null;
  if (!updates) return null;
  for (const update of updates) await client.notify("session/update", { sessionId: session.id, update });
  return { stopReason: "end_turn" };
}

function statusText(session: AcpSession): string {
  const mode = `Mode: ${session.permission}.`;
  if (!session.threadId) return `No thread yet: the next prompt starts a run. ${mode}\n`;
  const waits = session.status === "waiting" ? ` It waits for ${session.waiting === "approval" ? "an approval" : "an answer"}.` : "";
  return `Thread ${session.threadId} (${session.mode ?? "run"}): ${session.status ?? "running"}.${waits} ${mode}\n`;
}

// The thread's latest judged run of each gate, from the session's record, as finished gate tool calls.
function gateUpdates(session: AcpSession): SessionUpdate[] {
  const latest = new Map<string, Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>>();
  for (const line of readRecord(session.cwd, session.id) ?? []) {
    if (!("event" in line) || line.event.type !== "gate.result" || line.event.thread !== session.threadId) continue;
    latest.set(line.event.gate.name, gateResult(line.event) as Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>);
  }
  if (!latest.size)
    return [say(session.threadId ? `No gate has run in thread ${session.threadId} since the session began.\n` : "No thread yet, so no gate has run.\n")];
  return [...latest].map(([name, result]) => ({
    sessionUpdate: "tool_call",
    toolCallId: `slash-gates:${result.toolCallId}`,
    title: `gate ${name}: latest result`,
    kind: "execute",
    status: result.status ?? "completed",
    content: result.content ?? [],
    rawOutput: result.rawOutput,
  }));
}

function say(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}
