import { isAbsolute, join } from "node:path";
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolKind } from "@agentclientprotocol/sdk";
import { EDIT_TEXT_CAP } from "../agents/call-edit.js";
import type { ToolEdit, YoloEvent } from "../events/schema.js";
import { gateCall, gateResult } from "./gate-update.js";

/** yolo's tools as ACP's tool kinds, so an editor can pick an icon and know which ones touch files. */
const TOOL_KINDS: Record<string, ToolKind> = {
  read_file: "read",
  list_files: "search",
  search: "search",
  grep: "search",
  write_file: "edit",
  edit_file: "edit",
  delete_file: "delete",
  run_command: "execute",
  handoff: "think",
  switch_decision: "think",
};

/**
 * Turns a run's events (the versioned stream `--json` prints) into ACP `session/update`s: agents' messages and
 * replies as message chunks, tool calls and gates as tool calls with their status and the files they touch, and the
 * stories (or, before there are any, the workflow's nodes) as the plan. One translator follows one prompt turn.
 */
export class EventTranslator {
  private readonly nodes: { name: string; status: PlanEntry["status"] }[] = [];
  private readonly stories = new Map<string, { title: string; status: PlanEntry["status"] }>();
  private readonly paths = new Map<string, string[]>();
  /** The agent (node and story) whose streamed text the editor shows last; null once a paragraph of ours follows. */
  private streaming: string | null = null;
  /** Agents that streamed text in this turn: their `reply` is that text again. */
  private readonly streamed = new Set<string>();

  constructor(private readonly root: string) {}

  /** The updates one event makes (often none). */
  updates(e: YoloEvent): SessionUpdate[] {
    if (e.type === "token" || e.type === "thought") return this.stream(e);
    const out = this.said(e);
    // A streamed answer rarely ends its line: what we say next starts a paragraph of its own.
    if (this.streaming !== null && out.some((u) => u.sessionUpdate === "agent_message_chunk")) {
      this.streaming = null;
      return [say("\n\n"), ...out];
    }
    return out;
  }

  // The model's words and thinking as they stream, each agent's first words headed by its name (the node boundary).
  private stream(e: Extract<YoloEvent, { type: "token" | "thought" }>): SessionUpdate[] {
    if (e.type === "thought") return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.text } }];
    const who = e.story === undefined ? e.node : `${e.node} (${e.story})`;
    this.streamed.add(who);
    if (this.streaming === who) return [say(e.text)];
    const head = this.streaming === null ? "" : "\n\n";
    this.streaming = who;
    return [say(`${head}_${who}:_ ${e.text}`)];
  }

  private said(e: YoloEvent): SessionUpdate[] {
    switch (e.type) {
      case "run.started":
        this.nodes.splice(0, this.nodes.length, ...e.nodes.map((name) => ({ name, status: ranBefore(e, name) })));
        return [say(`yolo thread ${e.thread}${e.resumed ? " (resumed)" : ""} · model ${e.model}\n\n`), this.plan()];
      case "node.started":
        this.mark(e.node, "in_progress");
        return [this.plan()];
      case "node.completed":
        this.mark(e.node, "completed");
        return [say(`**${e.node}**${e.blocked ? " (blocked)" : ""}: ${e.summary}\n\n`), this.plan()];
      case "reply":
        return this.streamed.has(e.story === undefined ? e.node : `${e.node} (${e.story})`) ? [] : [say(`${e.text}\n\n`)];
      case "tool.called":
        return e.tool === "handoff" ? [] : [this.toolCall(e)];
      case "tool.result":
        return e.tool === "handoff" ? [] : [this.toolResult(e)];
      case "gate.started":
        return [gateCall(e)];
      case "gate.result":
        return [gateResult(e)];
      case "story.started":
        this.stories.set(e.story, { title: e.title, status: "in_progress" });
        return [this.plan()];
      case "story.completed":
      case "story.merged":
        this.stories.set(e.story, { title: this.stories.get(e.story)?.title ?? e.story, status: "completed" });
        return [this.plan()];
      case "warning":
        return [say(`⚠ ${e.message}\n\n`)];
      case "error":
        return [say(`✗ ${e.code}: ${e.message}\n\n`)];
      case "interrupt":
        return [say(`**${e.askedBy}** asks: ${e.question}\n\n`)];
      case "run.completed":
        return [say(outcomeText(e))];
      default:
        return [];
    }
  }

  private toolCall(e: Extract<YoloEvent, { type: "tool.called" }>): SessionUpdate {
    const input = parseArgs(e.args);
    // An edit's path comes from its whole arguments (`edit`): the preview in `args` may end before it.
    const given = e.edit ? [e.edit.path] : pathsOf(input);
    const paths = given.map((p) => this.absolute(p));
    this.paths.set(callKey(e), paths);
    return {
      sessionUpdate: "tool_call",
      toolCallId: callKey(e),
      title: `${e.node}: ${e.tool}${given.length ? ` ${given.join(", ")}` : brief(input)}`,
      kind: TOOL_KINDS[e.tool] ?? "other",
      status: "in_progress",
      rawInput: input,
      locations: paths.map((path) => ({ path })),
      ...(e.edit ? { content: [editContent(e.edit, this.absolute(e.edit.path))] } : {}),
    };
  }

  private absolute(path: string): string {
    return isAbsolute(path) ? path : join(this.root, path);
  }

  private toolResult(e: Extract<YoloEvent, { type: "tool.result" }>): SessionUpdate {
    const locations = (this.paths.get(callKey(e)) ?? []).map((path) => ({ path }));
    this.paths.delete(callKey(e));
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: callKey(e),
      status: e.ok ? "completed" : "failed",
      content: e.summary ? [{ type: "content", content: { type: "text", text: e.summary } }] : [],
      ...(locations.length ? { locations } : {}),
    };
  }

  private mark(node: string, status: PlanEntry["status"]): void {
    const entry = this.nodes.find((n) => n.name === node);
    if (entry) entry.status = status;
  }

  // The stories once there are any (the work itself), else the workflow's nodes.
  private plan(): SessionUpdate {
    const entries: PlanEntry[] = this.stories.size
      ? [...this.stories.values()].map((s) => ({ content: s.title, priority: "medium", status: s.status }))
      : this.nodes.map((n) => ({ content: n.name, priority: "medium", status: n.status }));
    return { sessionUpdate: "plan", entries };
  }
}

// The edit as ACP's diff (ACP wants an absolute path); past the event's cap, a line saying the diff is not shown.
function editContent(edit: ToolEdit, path: string): ToolCallContent {
  if (edit.newText === null)
    return { type: "content", content: { type: "text", text: `${edit.path}: the change is over ${EDIT_TEXT_CAP / 1024} KiB; its diff is not shown.` } };
  return { type: "diff", path, oldText: edit.oldText, newText: edit.newText };
}

function say(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}

function ranBefore(e: Extract<YoloEvent, { type: "run.started" }>, node: string): PlanEntry["status"] {
  return e.ran?.includes(node) ? "completed" : "pending";
}

/** The editor's id of a tool call: a story's dev runs beside others with the same call ids, the story keeps them apart. */
export function callKey(e: { node: string; callId: string; story?: string }): string {
  return [e.story, e.node, e.callId].filter((p) => p !== undefined).join(":");
}

/** The last words of a prompt turn: the outcome, its exit code, and the files the run changed. */
export function outcomeText(e: Extract<YoloEvent, { type: "run.completed" }>): string {
  const files = e.filesChanged.length ? `\n\nFiles changed: ${e.filesChanged.join(", ")}` : "";
  return `**${e.status}** (exit ${e.exitCode}): ${e.reason}${files}\n`;
}

function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

// The file paths a tool call names (`path`, `paths`), as the model gave them.
function pathsOf(input: unknown): string[] {
  if (!input || typeof input !== "object") return [];
  const o = input as { path?: unknown; paths?: unknown };
  const list = [o.path, ...(Array.isArray(o.paths) ? o.paths : [])];
  return list.filter((p): p is string => typeof p === "string" && p !== "");
}

function brief(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const o = input as Record<string, unknown>;
  const value = o.command ?? o.pattern ?? o.query;
  return typeof value === "string" ? ` ${value.length > 80 ? `${value.slice(0, 79)}…` : value}` : "";
}
