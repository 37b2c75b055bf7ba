import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { z } from "zod";
import { LimitError, limitError } from "../errors.js";
import type { EventBody, Usage } from "../events/schema.js";
import type { NoticeFact } from "../events/facts.js";
import { tokenBatch } from "../events/token-batch.js";
import { addUsage, reportedUsage, ZERO_USAGE } from "../events/usage.js";
import { isStreamCut } from "../llm/errors.js";
import { estimateUsage } from "../llm/usage-estimate.js";
import { HANDOFF_DESCRIPTION } from "../roles/handoff-schema.js";
import type { ToolContext, ToolDef } from "../tools/types.js";
import { ReplyChunks } from "./reply-chunks.js";
import { noCallError, parseTextToolCalls, type TextToolCalls } from "./text-tool-calls.js";
import { toolErrorText, toOpenAiTool } from "./tool-calls.js";
import { callEdit } from "./call-edit.js";
import { withCallSignal } from "../llm/call-signal.js";
import { canonical } from "../text/canonical.js";

export interface AgentLoopOptions {
  node: string;
  model: BaseChatModel;
  messages: BaseMessage[];
  tools: ToolDef[];
  handoff: { schema: z.ZodType<Record<string, unknown>>; jsonSchema: Record<string, unknown> };
  toolContext: ToolContext;
  maxTurns: number;
  /** Tool calls run from one model reply; the rest are answered with an error and not run. Absent: no bound. */
  maxToolCallsPerTurn?: number;
  maxReminders: number;
  emit: (event: EventBody) => void;
  /** Appends one entry to the node's transcript on disk (never to graph state). */
  record: (entry: Record<string, unknown>) => void;
  /** Appends several at once (one write; the prompt's messages at the start of a run); absent: `record` each. */
  recordAll?: (entries: Record<string, unknown>[]) => void;
  /** Maps a model/provider failure to a typed error; returns null when the error is not the provider's. */
  classifyError: (error: unknown) => Error | null;
  /**
   * Runs before each model call with the transcript and the loop's usage so far: may throw (a budget reached)
   * or return a compacted transcript and the usage that cost (a summary call, whose `usage` event it emits).
   */
  beforeCall?: (messages: readonly BaseMessage[], usage: Usage) => Promise<{ messages: BaseMessage[]; usage?: Usage } | null>;
  /** A reply with text and no tool call ends the loop as the answer (`chat`), instead of earning a reminder. */
  finishOnText?: boolean;
  signal?: AbortSignal;
  /** How the front end words a notice that names its commands (text tool calls: `yolo doctor`); absent: neutral words. */
  noticeWords?: (fact: NoticeFact) => string;
  /** Runs around each tool call (the user's PreToolUse / PostToolUse hooks): may refuse it, change its arguments or add to its result. */
  aroundTool?: (call: Call, run: (args?: Record<string, unknown>) => Promise<CallOutcome>) => Promise<CallOutcome>;
}

export interface AgentLoopResult {
  handoff: Record<string, unknown>;
  usage: Usage;
  filesChanged: string[];
  turns: number;
}

export interface Call {
  id: string;
  name: string;
  args: Record<string, unknown> | null;
  raw: string;
  parseError: string | null;
}

/** The same call (tool and arguments) this many times in a row is a loop: the agent stops with a limit. */
export const LOOP_REPEATS = 5;

/** Counts consecutive identical tool calls; arguments compare as parsed JSON, so key order and spacing do not matter. */
export class RepeatDetector {
  private last = "";
  private count = 0;
  constructor(private readonly limit: number) {}

  /** Records a call; true when it makes `limit` identical calls in a row. */
  seen(call: Pick<Call, "name" | "args" | "raw">): boolean {
    const signature = `${call.name}\u0000${call.args ? canonical(call.args) : call.raw}`;
    this.count = signature === this.last ? this.count + 1 : 1;
    this.last = signature;
    return this.count >= this.limit;
  }
}

const REMINDER =
  "You replied without calling a tool. Continue with tool calls, and when your work is done call `handoff` with your results — that is the only way to finish your turn.";

/**
 * The agent node's loop: call the model with the agent's tools, execute each tool call, feed results back,
 * until the model calls `handoff` with valid arguments. Bad model output (invalid JSON, unknown tools, wrong
 * argument types) goes back to the model as a tool error; only provider failures and limits end the loop.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { node, emit, record } = options;
  const toolsByName = new Map(options.tools.map((t) => [t.name as string, t]));
  const bound = options.model.bindTools!([
    ...options.tools.map(toOpenAiTool),
    { type: "function", function: { name: "handoff", description: HANDOFF_DESCRIPTION, parameters: options.handoff.jsonSchema } },
  ]);
  const messages = [...options.messages];
  const initial = messages.map((m) => ({ role: m.getType(), content: m.content }));
  if (options.recordAll) options.recordAll(initial);
  else for (const entry of initial) record(entry);
  let usage: Usage = ZERO_USAGE;
  const filesChanged = new Set<string>();
  let reminders = 0;
  const repeats = new RepeatDetector(LOOP_REPEATS);
  // Whether this loop has seen the model call a tool at all; and whether the text-calls notice was given.
  let sawCall = false;
  let toldTextCalls = false;

  for (let turn = 1; ; turn++) {
    if (turn > options.maxTurns) {
      const said = `${node} used its ${options.maxTurns} turns without handing off.`;
      throw limitError({ kind: "turns", setting: "maxTurns", said }, "The thread is saved: resume it with a higher maxTurns.");
    }
    const prepared = options.beforeCall ? await options.beforeCall(messages, usage) : null;
    if (prepared) {
      messages.splice(0, messages.length, ...prepared.messages);
      // The hook reported the usage of any call it made (a summary) itself; the loop only counts it.
      if (prepared.usage) usage = addUsage(usage, prepared.usage);
    }
    const reply = await streamReply(bound, messages, options);
    const turnUsage = usageOf(reply, messages);
    usage = addUsage(usage, turnUsage);
    emit({ type: "usage", node, usage: turnUsage });

    const native = collectCalls(reply);
    const fromText = native.length ? null : textCalls(reply);
    const calls = fromText ? fromText.calls : native;
    if (fromText && !toldTextCalls) {
      toldTextCalls = true;
      const fact = { kind: "text-tool-calls" as const, node, shape: textCallShape(fromText.format) };
      emit({ type: "warning", message: options.noticeWords?.(fact) ?? textCallsNotice(fact) });
    }
    if (calls.length) sawCall = true;
    const assistant = rebuildAssistant(reply, calls, fromText?.text);
    messages.push(assistant);
    record({ role: "ai", content: assistant.content, tool_calls: calls.map((c) => ({ id: c.id, name: c.name, args: c.raw })) });

    if (calls.length === 0) {
      const text = typeof assistant.content === "string" ? assistant.content.trim() : "";
      if (options.finishOnText && text) return { handoff: { summary: text }, usage, filesChanged: [...filesChanged], turns: turn };
      // A model that has never called a tool gets one reminder, not all of them: it may not be able to.
      if (reminders >= (sawCall ? options.maxReminders : Math.min(1, options.maxReminders))) {
        throw noCallError({ node, model: modelNameOf(options.model), replies: reminders + 1, sawCall, text });
      }
      reminders++;
      messages.push(new HumanMessage(REMINDER));
      record({ role: "human", content: REMINDER });
      continue;
    }

    const handoff = await runCalls(calls, options, { toolsByName, messages, repeats, filesChanged });
    if (handoff) return { handoff, usage, filesChanged: [...filesChanged], turns: turn };
  }
}

/**
 * Runs one reply's tool calls in order, each answered in the transcript (past the per-reply bound: refused, not
 * run); the same call again and again ends the loop. The handoff, when one of them handed off.
 */
async function runCalls(
  calls: Call[],
  options: AgentLoopOptions,
  loop: { toolsByName: Map<string, ToolDef>; messages: BaseMessage[]; repeats: RepeatDetector; filesChanged: Set<string> },
): Promise<Record<string, unknown> | null> {
  const { node, emit, record } = options;
  let handoff: Record<string, unknown> | null = null;
  const perReply = options.maxToolCallsPerTurn ?? Number.POSITIVE_INFINITY;
  for (const [index, call] of calls.entries()) {
    if (index >= perReply) {
      refuseOverBound(call, perReply, calls.length, options, loop.messages);
      continue;
    }
    if (loop.repeats.seen(call)) {
      throw new LimitError(
        "loop",
        `${node} made the same ${call.name || "tool"} call with the same arguments ${LOOP_REPEATS} times in a row (a loop). The thread is saved: resume it to try again, or change the task or the agent's instructions.`,
      );
    }
    const edit = callEdit(call.name, call.args);
    emit({ type: "tool.called", node, tool: call.name, callId: call.id, args: preview(call.raw), ...(edit ? { edit } : {}) });
    const run = (args?: Record<string, unknown>) => executeCall(args ? { ...call, args } : call, loop.toolsByName, options, handoff !== null);
    const outcome = await (options.aroundTool ? options.aroundTool(call, run) : run());
    if (outcome.handoff) handoff = outcome.handoff;
    for (const f of outcome.filesChanged ?? []) loop.filesChanged.add(f);
    emit({ type: "tool.result", node, tool: call.name, callId: call.id, ok: outcome.ok, summary: outcome.summary });
    loop.messages.push(new ToolMessage({ tool_call_id: call.id, content: outcome.content }));
    record({ role: "tool", tool_call_id: call.id, ok: outcome.ok, content: outcome.content });
  }
  return handoff;
}

/**
 * A call past the per-reply bound: answered (every call needs its answer in the transcript) with an error saying so,
 * never run — one reply of 400 run_command calls must not start 400 commands.
 */
function refuseOverBound(call: Call, bound: number, total: number, options: AgentLoopOptions, messages: BaseMessage[]): void {
  const content = `Not run: one reply may make at most ${bound} tool calls and this one made ${total}; calls after the ${bound}th are refused. Make the calls that matter in smaller replies.`;
  const summary = `refused: over ${bound} tool calls in one reply`;
  options.emit({ type: "tool.called", node: options.node, tool: call.name, callId: call.id, args: preview(call.raw) });
  options.emit({ type: "tool.result", node: options.node, tool: call.name, callId: call.id, ok: false, summary });
  messages.push(new ToolMessage({ tool_call_id: call.id, content }));
  options.record({ role: "tool", tool_call_id: call.id, ok: false, content });
}

/** A model stream cut off mid-answer is asked again this many times; its partial reply is never used. */
export const STREAM_CUT_RETRIES = 2;

/**
 * One streamed model call; tokens are emitted as they arrive. A stream whose connection closed mid-answer (in
 * the middle of a tool call's arguments, say) is dropped whole and the call is made again: nothing of it runs.
 */
async function streamReply(
  bound: ReturnType<NonNullable<BaseChatModel["bindTools"]>>,
  messages: BaseMessage[],
  options: AgentLoopOptions,
): Promise<AIMessageChunk> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnce(bound, messages, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (attempt < STREAM_CUT_RETRIES && isStreamCut(error)) {
        options.record({ role: "retry", reason: "the model's stream was cut mid-answer; the partial reply was dropped", attempt: attempt + 1 });
        continue;
      }
      throw options.classifyError(error) ?? error;
    }
  }
}

async function streamOnce(
  bound: ReturnType<NonNullable<BaseChatModel["bindTools"]>>,
  messages: BaseMessage[],
  options: AgentLoopOptions,
): Promise<AIMessageChunk> {
  const reply = new ReplyChunks();
  const tokens = tokenBatch((text) => options.emit({ type: "token", node: options.node, text }));
  const thoughts = tokenBatch((text) => options.emit({ type: "thought", node: options.node, text }));
  // A signal of its own per call: the client leaves a listener on whatever signal it is given.
  await withCallSignal(options.signal, async (signal) => {
    const stream = await bound.stream(messages, { signal });
    for await (const chunk of stream) {
      const thought = chunk.additional_kwargs?.reasoning_content;
      if (typeof thought === "string" && thought) thoughts.push(thought);
      const text = contentText(chunk.content);
      if (text) {
        // The thinking so far goes out before the answer it led to.
        thoughts.flush();
        tokens.push(text);
      }
      reply.add(chunk);
    }
  }).finally(() => {
    thoughts.flush();
    tokens.flush();
  });
  const full = reply.result();
  if (!full) throw new Error("the model returned an empty stream");
  return full;
}

/**
 * The tool calls of a reply, in order, each with a unique id. Arguments are parsed strictly from the raw
 * streamed text: LangChain's lenient partial-JSON parsing turns arguments cut off mid-string (a model out of
 * output tokens) into an object with fields missing or truncated, which must never reach a tool.
 */
export function collectCalls(reply: AIMessageChunk): Call[] {
  const seen = new Set<string>();
  const uniqueId = (id: string | undefined, i: number) => {
    let candidate = id && id.length > 0 ? id : `call_${i}`;
    while (seen.has(candidate)) candidate = `${candidate}_${i}`;
    seen.add(candidate);
    return candidate;
  };
  const raw = rawCalls(reply);
  return raw.map((c, i) => {
    const parsed = parseArguments(c.args);
    return { id: uniqueId(c.id, i), name: c.name, raw: c.args, ...parsed };
  });
}

/** The calls as the provider sent them: merged stream chunks, or (non-streamed) the parsed and invalid calls. */
function rawCalls(reply: AIMessageChunk): { id?: string; name: string; args: string }[] {
  const chunks = reply.tool_call_chunks ?? [];
  if (chunks.length) return joinUnindexed(chunks);
  return [
    ...(reply.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, args: JSON.stringify(c.args ?? {}) })),
    ...(reply.invalid_tool_calls ?? []).map((c) => ({ id: c.id, name: c.name ?? "", args: c.args ?? "" })),
  ];
}

/**
 * Streamed tool-call pieces as calls. LangChain merges pieces by `index`; servers that send none (some local
 * servers and proxies) leave a call's argument pieces apart: a piece with no id, name or index continues the call before it.
 */
function joinUnindexed(chunks: NonNullable<AIMessageChunk["tool_call_chunks"]>): { id?: string; name: string; args: string }[] {
  const calls: { id?: string; name: string; args: string }[] = [];
  for (const c of chunks) {
    const last = calls[calls.length - 1];
    if (last && c.index === undefined && !c.id && !c.name) last.args += c.args ?? "";
    else calls.push({ id: c.id, name: c.name ?? "", args: c.args ?? "" });
  }
  return calls;
}

function parseArguments(text: string): { args: Record<string, unknown> | null; parseError: string | null } {
  if (text.trim() === "") return { args: {}, parseError: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return { args: value as Record<string, unknown>, parseError: null };
    return { args: null, parseError: "the arguments must be a JSON object" };
  } catch (error) {
    return { args: null, parseError: (error as Error).message };
  }
}

/**
 * Tool calls written in the reply's text (see text-tool-calls.ts), as calls with ids and strictly parsed
 * arguments; null when the text holds none by its rules.
 */
function textCalls(reply: AIMessageChunk): { calls: Call[]; text: string; format: TextToolCalls["format"] } | null {
  const found = parseTextToolCalls(contentText(reply.content));
  if (!found) return null;
  const stamp = reply.id ? reply.id.replace(/\W/g, "").slice(-12) : String(Date.now());
  const calls = found.calls.map((c, i) => ({ id: `call_text_${stamp}_${i}`, name: c.name, raw: c.args, ...parseArguments(c.args) }));
  return { calls, text: found.text, format: found.format };
}

/** How the model wrote its tool calls in its text, in words. */
function textCallShape(format: TextToolCalls["format"]): string {
  return format === "hermes" ? "<tool_call> tags" : format === "fenced-json" ? "a fenced JSON block" : "a JSON object";
}

/** The text-tool-calls notice in the engine's neutral words (the CLI adds the doctor command that checks the server). */
export function textCallsNotice(fact: Extract<NoticeFact, { kind: "text-tool-calls" }>): string {
  return `${fact.node}: the model wrote its tool calls in its reply text (${fact.shape}) instead of as tool calls; yolo parsed them and checks them like native calls. Configure the server's tool-call parser to avoid this.`;
}

/** A reply's text: a string (Chat Completions) or text blocks (the Responses API streams `{ type: "text" }` parts). */
function contentText(content: AIMessageChunk["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}

function modelNameOf(model: BaseChatModel): string {
  const name = (model as unknown as { model?: unknown }).model;
  return typeof name === "string" ? name : "the configured model";
}

/**
 * The assistant message as it goes back to the model. Rebuilt from all calls (valid and invalid) so every
 * tool result answers a call the provider has seen; unparseable arguments are re-sent as `{}`.
 * `text`: the reply's text without the tool calls it carried (calls written as text).
 */
function rebuildAssistant(reply: AIMessageChunk, calls: Call[], text?: string): AIMessage {
  const content = text ?? contentText(reply.content);
  return new AIMessage({
    content,
    tool_calls: calls.map((c) => ({ id: c.id, name: c.name || "unknown", args: c.args ?? {}, type: "tool_call" as const })),
  });
}

export interface CallOutcome {
  ok: boolean;
  content: string;
  summary: string;
  filesChanged?: string[];
  handoff?: Record<string, unknown>;
}

async function executeCall(call: Call, tools: Map<string, ToolDef>, options: AgentLoopOptions, alreadyHandedOff: boolean): Promise<CallOutcome> {
  if (call.parseError || !call.args) {
    return fail(
      `the arguments of ${call.name || "this call"} are not valid JSON (${call.parseError}). Received: ${preview(call.raw, 300)}. Call the tool again with a JSON object.`,
    );
  }
  if (call.name === "handoff") {
    if (alreadyHandedOff) return fail("handoff was already accepted in this reply; it is called once.");
    const parsed = options.handoff.schema.safeParse(call.args);
    if (!parsed.success) return fail(`handoff arguments are invalid: ${toolErrorText(parsed.error)}. Call handoff again with corrected arguments.`);
    return { ok: true, content: "Handoff accepted. Your turn is over.", summary: "handoff accepted", handoff: parsed.data };
  }
  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys(), "handoff"].join(", ");
    return fail(`there is no tool named "${call.name}" available to you. Available tools: ${names}.`);
  }
  const args = tool.schema.safeParse(call.args);
  if (!args.success) return fail(`${call.name} arguments are invalid: ${toolErrorText(args.error)}.`);
  try {
    return await tool.run(args.data, options.toolContext);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return fail(`${call.name} failed: ${(error as Error).message}`);
  }
}

function fail(message: string): CallOutcome {
  return { ok: false, content: `Error: ${message}`, summary: message.length > 120 ? `${message.slice(0, 117)}…` : message };
}

function preview(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// The server's own counts; an estimate, marked as one, when it reported none (or negative, NaN or absurd ones).
function usageOf(reply: AIMessageChunk, sent: readonly BaseMessage[]): Usage {
  return reportedUsage(reply.usage_metadata) ?? estimateUsage(sent, reply);
}
