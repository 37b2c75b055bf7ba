import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type AIMessageChunk } from "@langchain/core/messages";
import { causeCode, isBadPort } from "./cause-chain.js";
import { createChatModel, type ChatModelOptions } from "./model.js";

/** What `GET /models` said: the ids served, or the HTTP status when it is not a list, or why nothing answered. */
export type ModelsProbe =
  | { kind: "list"; status: number; ids: string[] }
  | { kind: "status"; status: number }
  | { kind: "unreachable"; reason: string; badPort: boolean };

/** Asks `GET {base}/models` once, within `timeoutMs`. Reachability, the key (401/403) and the model list in one request. */
export async function probeModels(base: string, apiKey: string | null, timeoutMs: number, fetchImpl: typeof fetch = globalThis.fetch): Promise<ModelsProbe> {
  let response: Response;
  try {
    response = await fetchImpl(`${base.replace(/\/+$/, "")}/models`, {
      headers: { authorization: `Bearer ${apiKey ?? "not-needed"}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const e = error as { name?: string; message?: string };
    const badPort = isBadPort(error);
    const reason = badPort
      ? `Node refuses to connect to this port ("bad port")`
      : e.name === "TimeoutError"
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : (causeCode(error) ?? e.message ?? String(error));
    return { kind: "unreachable", reason, badPort };
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) return { kind: "status", status: response.status };
  try {
    const data = (JSON.parse(text) as { data?: { id?: unknown }[] }).data;
    if (Array.isArray(data)) return { kind: "list", status: response.status, ids: data.map((m) => String(m.id)) };
  } catch {
    // not a list: the status alone says the server answers
  }
  return { kind: "status", status: response.status };
}

/** The outcome of one tool-call round trip: the reply with the call, then the model's answer to the tool result. */
export interface ToolProbe {
  /** The tool calls the server returned natively. */
  nativeCalls: number;
  /** The first reply's text (for calls written as text). */
  text: string;
  /** The server reported usage in the stream. */
  usageReported: boolean;
  /** The second request (with the tool result) was answered; null when not tried (no native call). */
  roundTrip: boolean | null;
}

export const PING_TOOL = "yolo_doctor_ping";

/**
 * One streamed request with a single tool the model is told to call, and, when it does, a second request carrying
 * the tool's result: the smallest exchange a yolo agent needs. Provider errors are thrown as the client throws them.
 */
export async function probeToolCall(opts: Omit<ChatModelOptions, "maxRetries" | "onRetry">): Promise<ToolProbe> {
  const model = createChatModel({ ...opts, maxRetries: 0 });
  const bound = model.bindTools([
    {
      type: "function",
      function: {
        name: PING_TOOL,
        description: 'Connectivity check: call it with value "pong".',
        parameters: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
      },
    },
  ]);
  const messages = [
    new SystemMessage(`You are a connectivity check. Call the tool ${PING_TOOL} with {"value": "pong"}. Do not answer in text.`),
    new HumanMessage(`Call ${PING_TOOL} now.`),
  ];
  const first = await collect(bound.stream(messages));
  const calls = first.tool_call_chunks ?? [];
  const text =
    typeof first.content === "string" ? first.content : first.content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
  const base = { nativeCalls: calls.length, text, usageReported: first.usage_metadata !== undefined };
  if (!calls.length) return { ...base, roundTrip: null };
  const id = calls[0].id ?? "call_doctor";
  await collect(
    bound.stream([
      ...messages,
      new AIMessage({ content: "", tool_calls: [{ id, name: calls[0].name ?? PING_TOOL, args: { value: "pong" }, type: "tool_call" }] }),
      new ToolMessage({ tool_call_id: id, content: "pong received; answer with the word done" }),
    ]),
  );
  return { ...base, roundTrip: true };
}

async function collect(stream: Promise<AsyncIterable<AIMessageChunk>>): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of await stream) full = full ? full.concat(chunk) : chunk;
  if (!full) throw new Error("the model returned an empty stream");
  return full;
}
