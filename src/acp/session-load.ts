import { type AgentContext, RequestError, type SessionInfo, type SessionUpdate } from "@agentclientprotocol/sdk";
import { readYolo, type YoloBinary } from "../mcp/serve-child.js";
import { EventTranslator } from "./event-updates.js";
import { learn, type AcpSession } from "./prompt-turn.js";
import { readRecord, recordedSessions, type RecordLine } from "./session-record.js";

/** A thread's row as `yolo threads --json` prints it (the fields a session needs). */
export type ThreadRowJson = { id: string; mode: string; status: string; requirement: string; updatedAt?: string; currentNode?: string | null };

/**
 * Where a thread found by its index row stands, for a session taking it up: a thread waiting at an `approve_<agent>`
 * node waits on an approval, and the session's next legs must keep that node in their graph (plan mode's `approve_pm`
 * exists only where YOLO_APPROVE names pm: without it a resume would run on past the plan unapproved).
 */
export function positionOf(row: ThreadRowJson): Pick<AcpSession, "threadId" | "mode" | "status" | "waiting"> {
  const approval = row.status === "waiting" && (row.currentNode ?? "").startsWith("approve_");
  return { threadId: row.id, mode: row.mode, status: row.status, waiting: approval ? "approval" : null };
}

/**
 * Shows a loaded session what it said and did, from its record: each prompt as the user's message, each run's events
 * as the updates they made then (agents' summaries, tool calls with their diffs, gates, the outcome). The session
 * learns where its thread stands from the same events. False when the project has no record of this id.
 */
export async function replayRecord(session: AcpSession, client: AgentContext): Promise<boolean> {
  const lines = readRecord(session.cwd, session.id);
  if (!lines) return false;
  const translator = new EventTranslator(session.cwd);
  for (const line of lines) {
    for (const update of replayed(line, translator, session)) await client.notify("session/update", { sessionId: session.id, update });
  }
  return true;
}

function replayed(line: RecordLine, translator: EventTranslator, session: AcpSession): SessionUpdate[] {
  if ("prompt" in line) return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: line.prompt } }];
  learn(session, line.event);
  return translator.updates(line.event);
}

/**
 * A thread started outside any editor session (from the CLI, or by another editor), shown by its checkpoints: what
 * each agent produced, one line a node, then where it stands.
 */
export async function replayThread(session: AcpSession, row: ThreadRowJson, binary: YoloBinary, client: AgentContext): Promise<void> {
  const history = await readYolo(binary, ["history", row.id, "--json"]);
  const steps = history.ok ? parseList<{ node: string; summary: string }>(history.text) : [];
  const lines = steps.filter((s) => s.node !== "input" && s.summary).map((s) => `**${s.node}**: ${s.summary}\n\n`);
  lines.push(`Thread ${row.id} (${row.mode}): ${row.status}. ${row.requirement}\n`);
  for (const text of lines)
    await client.notify("session/update", { sessionId: session.id, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
}

/** The thread's index row in the project at `binary.cwd`, or a "resource not found" error naming it. */
export async function findThread(binary: YoloBinary, threadId: string): Promise<ThreadRowJson> {
  const row = (await threadRows(binary)).find((r) => r.id === threadId);
  if (!row) throw RequestError.sessionNotFound(threadId);
  return row;
}

/**
 * `session/list` for one project: the sessions an editor held there (by the id `session/new` gave), newest first,
 * then each thread no session ran (started from the CLI), by its thread id, which `session/load` takes too.
 */
export async function listSessions(binary: YoloBinary): Promise<SessionInfo[]> {
  const recorded = recordedSessions(binary.cwd);
  const covered = new Set(recorded.flatMap((s) => s.threads));
  const threads = (await threadRows(binary))
    .filter((r) => !covered.has(r.id))
    .map((r) => ({
      sessionId: r.id,
      cwd: binary.cwd,
      title: r.requirement,
      updatedAt: r.updatedAt ?? null,
      _meta: { yolo: { threadId: r.id, status: r.status } },
    }));
  return [...recorded.map(({ threads: ids, ...info }) => ({ ...info, _meta: { yolo: { threads: ids } } })), ...threads];
}

async function threadRows(binary: YoloBinary): Promise<ThreadRowJson[]> {
  const listed = await readYolo(binary, ["threads", "--json"]);
  return listed.ok ? parseList<ThreadRowJson>(listed.text) : [];
}

function parseList<T>(text: string): T[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}
