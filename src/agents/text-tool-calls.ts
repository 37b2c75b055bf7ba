import { LimitError, ProviderError } from "../errors.js";

/**
 * Tool calls a model wrote as text instead of `tool_calls` (a server without a tool-call parser, a model trained on
 * another format): Hermes/Qwen `<tool_call>{"name":…,"arguments":…}</tool_call>`, a bare JSON object
 * `{"name":…,"arguments":…}` (Llama writes `parameters`), or one fenced ```json block holding such an object.
 *
 * The model is untrusted and often *talks about* tool calls: a call quoted in prose or in a code sample it is
 * discussing must not run. So text counts as calls only when the calls are the reply's end:
 * - `<tool_call>` blocks: one or more at the very end of the reply (whitespace between and after them only), not
 *   inside an open code fence; the prose before them is kept as the reply's text (Hermes' documented shape);
 * - a bare JSON object (or an array of them) or a fenced JSON block: only when it is the whole reply.
 * Anything else is plain text. Arguments still go through the same checks as native calls (JSON, the tool's schema).
 */

/** A call found in the text; `args` is the raw JSON text of the arguments, as a native call carries it. */
export interface TextToolCall {
  name: string;
  args: string;
}

export interface TextToolCalls {
  calls: TextToolCall[];
  /** The reply without the calls (the prose before them), trimmed. */
  text: string;
  /** Which shape they came in, for the notice. */
  format: "hermes" | "json" | "fenced-json";
}

const TAG_BLOCK = /<tool_call>\s*((?:(?!<tool_call>)[\s\S])*?)\s*<\/tool_call>\s*$/;
const WHOLE_FENCE = /^```(?:json|JSON)?[ \t]*\n([\s\S]*?)\n```$/;

/** The tool calls written in a reply's text, or null when the reply is not (only) tool calls by the rules above. */
export function parseTextToolCalls(content: string): TextToolCalls | null {
  const reply = content.trim();
  if (!reply) return null;
  return hermesCalls(reply) ?? wholeJsonCalls(reply);
}

// `<tool_call>` blocks peeled off the end of the reply, last first.
function hermesCalls(reply: string): TextToolCalls | null {
  const bodies: string[] = [];
  let rest = reply;
  for (let match = TAG_BLOCK.exec(rest); match; match = TAG_BLOCK.exec(rest)) {
    bodies.unshift(match[1]);
    rest = rest.slice(0, match.index).trimEnd();
  }
  if (!bodies.length) return null;
  // An unclosed ``` before the tags means they sit inside a code sample the model is showing.
  if ((rest.match(/^\s*```/gm) ?? []).length % 2 === 1) return null;
  const calls: TextToolCall[] = [];
  for (const body of bodies) {
    const value = parseJson(body);
    // Broken JSON inside the tags is still a call: it goes back to the model as "not valid JSON", as a native one would.
    const call = value === undefined ? { name: /"name"\s*:\s*"([\w.-]{1,64})"/.exec(body)?.[1] ?? "", args: body } : callOf(value);
    if (!call) return null;
    calls.push(call);
  }
  return { calls, text: rest, format: "hermes" };
}

// The whole reply as one JSON call, an array of calls, or one fenced block holding either.
function wholeJsonCalls(reply: string): TextToolCalls | null {
  const fenced = WHOLE_FENCE.exec(reply);
  const source = fenced ? fenced[1] : reply;
  if (!/^[[{]/.test(source.trim())) return null;
  const value = parseJson(source);
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return null;
  const calls: TextToolCall[] = [];
  for (const item of items) {
    const call = callOf(item);
    if (!call) return null;
    calls.push(call);
  }
  return { calls, text: "", format: fenced ? "fenced-json" : "json" };
}

// `{"name": "x", "arguments": {…} | "…json…"}`; `parameters` is Llama's spelling. Anything else is not a call.
function callOf(value: unknown): TextToolCall | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  if (typeof v.name !== "string" || !/^[A-Za-z_][\w.-]{0,63}$/.test(v.name)) return null;
  if (keys.some((k) => !["name", "arguments", "parameters", "id", "type"].includes(k))) return null;
  const raw = v.arguments ?? v.parameters ?? {};
  if (typeof raw === "string") return { name: v.name, args: raw };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  return { name: v.name, args: JSON.stringify(raw) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Markers of tool-call syntax a server should have parsed (Hermes, Llama's python tag, Mistral, functionary). */
const CALL_MARKERS = /<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]|<function=|"arguments"\s*:/;

/** True when a reply's text carries tool-call syntax: the model tried to call a tool the server did not parse. */
export function looksLikeToolCallSyntax(content: string): boolean {
  return CALL_MARKERS.test(content);
}

/**
 * What to tell the user when a model answers in text turn after turn and never calls a tool: the model or the
 * server does not do tool calling. Names the usual fix for each server.
 */
export function noToolCallingAdvice(model: string): string {
  return (
    `Model "${model}" answered without calling any tool, even after a reminder: the model or the server it runs on does not do tool calling, and yolo needs it. ` +
    "Fixes: vLLM — start it with --enable-auto-tool-choice --tool-call-parser hermes (or the parser for your model: llama3_json, mistral, …); " +
    "Ollama — use a model with tool support (ollama.com/search?c=tools, e.g. qwen2.5-coder, llama3.1); " +
    "LM Studio — load a model whose card shows tool use, and use its OpenAI-compatible server (http://localhost:1234/v1); " +
    "llama.cpp server — start llama-server with --jinja (and a chat template with tools). `yolo doctor` checks a tool-call round trip."
  );
}

/**
 * The error that ends a loop whose replies had no tool call after its reminders. When the loop never saw a call,
 * the advice on tool calling is added; when the text even carries tool-call syntax nobody parsed, the server is the
 * problem (a provider error, exit 5), not the agent's persistence (a turns limit, exit 6).
 */
export function noCallError(input: { node: string; model: string; replies: number; sawCall: boolean; text: string }): Error {
  const last = input.text ? ` Its last reply: ${quoteReply(input.text)}` : "";
  const head = `${input.node} answered ${input.replies} times without calling a tool or handing off.`;
  if (!input.sawCall && looksLikeToolCallSyntax(input.text)) {
    return new ProviderError(`${head} Its replies hold tool-call syntax the server did not turn into tool calls. ${noToolCallingAdvice(input.model)}${last}`);
  }
  const advice = input.sawCall ? "" : ` If this model never calls tools: ${noToolCallingAdvice(input.model)}`;
  return new LimitError("turns", `${head} The thread is saved: resume it to try again, or use a model that supports tool calls.${advice}${last}`);
}

/** A model's reply quoted in a message: what it said is often the answer the user wanted, so it is not lost. */
function quoteReply(text: string): string {
  const max = 2000;
  return `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
}
