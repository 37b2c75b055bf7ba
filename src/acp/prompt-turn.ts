import type { AgentContext, PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import type { McpServers } from "../config/mcp-servers.js";
import type { PermissionMode } from "./modes.js";
import { yoloEventSchema, type YoloEvent } from "../events/schema.js";
import { runYoloChild, type ChildOutcome, type YoloBinary } from "../mcp/serve-child.js";
import { approvalArgs, type ThreadPosition } from "./child-args.js";
import { callKey, EventTranslator } from "./event-updates.js";
import { RecordWriter } from "./session-record.js";

/** One ACP session: a yolo thread (once its first run started) in the folder the editor opened. */
export interface AcpSession extends ThreadPosition {
  id: string;
  cwd: string;
  /** Aborts the child run of the prompt turn in progress (session/cancel). */
  turn: AbortController | null;
  /** What the session's runs do before asking (session/set_mode). */
  permission: PermissionMode;
  /** The editor of the turn in progress, which ask mode asks. */
  client: AgentContext | null;
  /** The editor's tool call id of each call of the running turn, by yolo's call id: a permission names its call. */
  calls: Map<string, string>;
  /** The editor's stdio MCP servers, started with each of the session's runs; null: none. */
  mcpServers: McpServers | null;
  /** Whether the running thread's commands run in the sandbox (its run.started says); null: not known yet. */
  sandboxed: boolean | null;
  /** What the thread waits to have approved: who made it and the output (the plan's stories, say), where given. */
  review: { askedBy: string; artifact: string | null } | null;
}

/**
 * One prompt turn: runs the yolo child for `args`, streaming its events as session updates. An approval the run
 * waits on is asked as a permission request and the run goes on with the answer, in the same turn; a question ends
 * the turn (the next prompt answers it). The turn ends with the run's outcome: its status and exit code in `_meta`.
 */
export async function promptTurn(input: { session: AcpSession; args: string[]; binary: YoloBinary; client: AgentContext }): Promise<PromptResponse> {
  const { session, client } = input;
  const turn = new AbortController();
  session.turn = turn;
  let args = input.args;
  let outcome: ChildOutcome;
  try {
    for (;;) {
      outcome = await runLeg(session, args, { ...input.binary, cwd: session.cwd }, client, turn.signal);
      if (turn.signal.aborted || session.status !== "waiting" || session.waiting !== "approval" || !session.threadId) break;
      const approved = await askApproval(session, client, turn.signal);
      if (approved === null) break;
      args = approvalArgs(session.threadId, approved.approved, approved.reason);
    }
  } finally {
    session.turn = null;
  }
  const meta = { yolo: { threadId: session.threadId, status: outcome.status, exitCode: outcome.exitCode } };
  return { stopReason: turn.signal.aborted ? "cancelled" : "end_turn", _meta: meta };
}

// One child run: its events become updates (sent in order), and the session learns where its thread stands.
async function runLeg(session: AcpSession, args: string[], binary: YoloBinary, client: AgentContext, signal: AbortSignal): Promise<ChildOutcome> {
  const translator = new EventTranslator(session.cwd);
  let sending = Promise.resolve();
  const send = (update: SessionUpdate) => {
    sending = sending.then(() => client.notify("session/update", { sessionId: session.id, update }).catch(() => {}));
  };
  session.waiting = null;
  const recorder = new RecordWriter(session.cwd, session.id);
  const outcome = await runYoloChild(
    binary,
    args,
    (raw) => {
      const parsed = yoloEventSchema.safeParse(raw);
      if (!parsed.success) return;
      learn(session, parsed.data);
      if (parsed.data.type === "tool.called") session.calls.set(parsed.data.callId, callKey(parsed.data));
      recorder.write(parsed.data);
      for (const update of translator.updates(parsed.data)) send(update);
    },
    signal,
  );
  recorder.flush();
  if (outcome.threadId) session.threadId = outcome.threadId;
  session.status = outcome.status;
  // Refused before any event (exit 2: a second run in this tree, a bad config): said as the turn's message.
  if (!outcome.threadId || outcome.status === "config_error")
    send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `yolo: ${outcome.reason}\n` } });
  await sending;
  return outcome;
}

/** What an event tells about the session's thread. */
export function learn(session: AcpSession, e: YoloEvent): void {
  if (e.type === "run.started") {
    session.threadId = e.thread;
    session.mode = e.mode ?? "run";
    session.sandboxed = e.sandbox ? e.sandbox.kind !== "none" : null;
  }
  if (e.type === "interrupt") {
    session.waiting = e.kind === "approval" ? "approval" : "question";
    // The review node of an `approve` entry is named for the agent whose output it shows.
    session.review = e.kind === "approval" ? { askedBy: e.askedBy.replace(/^approve_/, ""), artifact: e.artifact ?? null } : null;
  }
  if (e.type === "run.completed") session.status = e.status;
}

/**
 * Asks the editor's user to approve what the thread waits on; null when the request was cancelled. A rejection's
 * reason is the one the editor gave in the answer's `_meta.reason`, where it gives one (ACP's answer has no field for words).
 */
async function askApproval(session: AcpSession, client: AgentContext, signal: AbortSignal): Promise<{ approved: boolean; reason: string | null } | null> {
  const answer = await client
    .request(
      "session/request_permission",
      {
        sessionId: session.id,
        toolCall: {
          toolCallId: `approval:${session.threadId}`,
          title: `Approve ${session.review ? `${session.review.askedBy}'s` : "this"} output so the run goes on?`,
          kind: "think",
          status: "pending",
          // What is approved, in the words the run waits with (the stories a plan holds).
          ...(session.review?.artifact ? { content: [{ type: "content", content: { type: "text", text: session.review.artifact } }] } : {}),
        },
        options: [
          { optionId: "approve", name: "Approve", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    )
    .catch(() => null);
  if (answer?.outcome.outcome !== "selected") return null;
  const given = (answer._meta as { reason?: unknown } | null | undefined)?.reason;
  return { approved: answer.outcome.optionId === "approve", reason: typeof given === "string" && given.trim() ? given.trim() : null };
}
