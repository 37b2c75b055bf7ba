import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer of the mock server. */
export interface ScriptedReply {
  /** Assistant text; with `status`, the error message instead. */
  content?: string;
  /** `args` objects are JSON.stringify'd; strings are sent raw (may be invalid JSON on purpose). */
  toolCalls?: { name: string; args: unknown; id?: string }[];
  /** Answer with this HTTP error (401, 429, 500, …) and an OpenAI-style error body. */
  status?: number;
  /** Extra response headers, e.g. `{ "retry-after": "0" }`. */
  headers?: Record<string, string>;
  /** Wait for this before answering; the request stays open meanwhile (kill -9 tests). */
  hold?: Promise<void>;
  delayMs?: number;
  /** Defaults to a rough chars/4 estimate of the request and the reply. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** How many SSE chunks the content is streamed in (default 4); thousands make a token flood. */
  contentChunks?: number;
  /** Streamed only: the model's thinking, sent before the content as `delta.reasoning_content` (DeepSeek, vLLM, llama.cpp). */
  reasoning?: string;
  /** Content chunks per second, like a fast model (default: all at once). */
  contentRate?: number;
  /**
   * Cut the stream after this many characters of the first tool call's arguments: `reset` closes the connection
   * (the body fails mid-stream), `end` ends the response as if complete, without finish_reason, usage or [DONE].
   */
  cut?: { at: number; how: "reset" | "end" };
  /** Answer HTTP 200 with exactly this body (an HTML login page, half a JSON document…), whatever was asked. */
  raw?: { body: string; contentType?: string };
  /**
   * Answer HTTP 200 as an event stream and write `chunk` every `everyMs` until the client hangs up or close():
   * an SSE comment trickled forever, or a flood of content deltas.
   */
  drip?: { chunk: string; everyMs: number };
  /** Streamed: send the role delta and the content, then go silent (the connection stays open until close()). */
  stall?: boolean;
  /**
   * Streamed wire quirks of local servers: every tool call whole in one chunk (Ollama), tool-call deltas without
   * `index`, a `finish_reason` other than OpenAI's (`"stop"` after tool calls), no usage chunk even when asked
   * (llama.cpp server, LM Studio), usage with `completion_tokens_details.reasoning_tokens` (OpenAI reasoning models).
   */
  wire?: { toolCallsInOneChunk?: boolean; noIndex?: boolean; finishReason?: string; noUsage?: boolean; reasoningTokens?: number };
}

/** A chat-completions request as the mock received it. */
export interface RecordedRequest {
  body: any;
  messages: any[];
  tools: any[];
  model: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Responder = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface MockOpenAI {
  /** Base URL including `/v1`, ready for `configuration.baseURL`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
  setResponder(r: Responder): void;
}

export interface MockOpenAIOptions {
  /** HTTP status for requests past the end of a scripted array (default 500). */
  exhaustedStatus?: number;
  /**
   * The ids `GET /v1/models` lists (default ["mock-model", "gpt-4o-mini"]: the name tests give and yolo's default model,
   * which a run's start-up probe looks for); null: the route is not served (404), as on some servers.
   */
  models?: string[] | null;
}

const ERROR_KINDS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Bad request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist or you do not have access to it." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests." },
};

/** Starts a scripted OpenAI-compatible server on 127.0.0.1 at a random port. */
export async function startMockOpenAI(responder: Responder | ScriptedReply[], options: MockOpenAIOptions = {}): Promise<MockOpenAI> {
  let respond: Responder = Array.isArray(responder) ? scriptResponder(responder, options.exhaustedStatus ?? 500) : responder;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let serial = 0;
  // Resolved by close(), so held and delayed requests stop waiting and nothing keeps the test process alive.
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) sendError(res, 500, `mock server error: ${String(err)}`);
      else res.destroy();
    });
  });
  // Node's 5 s keep-alive closes an idle socket: on a loaded machine the client reused one just as it closed, got
  // ECONNRESET and retried, and a recorded run then held a retry warning its replay never has. close() ends the sockets.
  server.keepAliveTimeout = 120_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  // Routes one HTTP request: the models list, chat completions, or an OpenAI-style 404.
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path === "/v1/models" && options.models !== null) {
      const ids = options.models ?? ["mock-model", "gpt-4o-mini"];
      sendJson(res, 200, { object: "list", data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "mock" })) });
      return;
    }
    const responsesApi = path === "/v1/responses";
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && !responsesApi)) {
      await readBody(req);
      sendError(res, 404, `mock server: no route for ${req.method} ${path}`);
      return;
    }
    const raw = await readBody(req);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(res, 400, "mock server: request body is not JSON");
      return;
    }
    const recorded: RecordedRequest = {
      body,
      // The Responses API sends `input` items; the role-carrying ones are the messages.
      messages: Array.isArray(body?.messages) ? body.messages : Array.isArray(body?.input) ? body.input : [],
      tools: Array.isArray(body?.tools) ? body.tools : [],
      model: typeof body?.model === "string" ? body.model : "",
      headers: { ...req.headers },
    };
    const index = requests.length;
    requests.push(recorded);
    const reply = await respond(recorded, index);
    if (reply.hold) await Promise.race([reply.hold, closed]);
    if (reply.delayMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise((r) => (timer = setTimeout(r, reply.delayMs))), closed]);
      clearTimeout(timer);
    }
    if (res.destroyed) return;
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    if (reply.status && reply.status >= 400) {
      sendError(res, reply.status, reply.content);
      return;
    }
    if (reply.raw) {
      res.writeHead(200, { "content-type": reply.raw.contentType ?? "text/html; charset=utf-8" });
      res.end(reply.raw.body);
      return;
    }
    if (reply.drip) {
      await drip(res, reply.drip, closed);
      return;
    }
    const completion = buildCompletion(recorded, reply, () => `call_mock_${++serial}`);
    if (responsesApi) {
      if (body.stream === true) await streamResponse(res, completion);
      else sendJson(res, 200, responseObject(completion, "completed"));
      return;
    }
    if (body.stream === true) await streamCompletion(res, completion, body.stream_options?.include_usage === true, closed);
    else sendJson(res, 200, completionJson(completion));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setResponder(r) {
      respond = r;
    },
    close() {
      markClosed();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/** Which yolo agent sent the request, from "You are the <role> agent" in the first system message. */
export function roleOf(req: RecordedRequest): string | null {
  const system = req.messages.find((m) => m?.role === "system" || m?.role === "developer");
  if (!system) return null;
  const match = /You are the ([\w-]+) agent/.exec(textOf(system.content));
  return match ? match[1] : null;
}

/** The `role: "tool"` messages after the last assistant message: the results the model is now reading. */
export function lastToolResults(req: RecordedRequest): any[] {
  let lastAssistant = -1;
  req.messages.forEach((m, i) => {
    if (m?.role === "assistant") lastAssistant = i;
  });
  return req.messages.slice(lastAssistant + 1).filter((m) => m?.role === "tool");
}

interface Completion {
  id: string;
  created: number;
  model: string;
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  contentChunks: number;
  reasoning: string;
  contentRate: number | null;
  cut: ScriptedReply["cut"] | null;
  stall: boolean;
  wire: NonNullable<ScriptedReply["wire"]>;
  finishReason: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
    completion_tokens_details?: { reasoning_tokens: number };
  };
}

// Serves an array in order; past its end, answers with an error naming the request number so tests fail loudly.
function scriptResponder(script: ScriptedReply[], exhaustedStatus: number): Responder {
  return (_req, index) =>
    index < script.length
      ? script[index]
      : { status: exhaustedStatus, content: `mock script exhausted at request ${index + 1} (the script has ${script.length} replies)` };
}

// Resolves a scripted reply into the fields both the JSON and the SSE shapes need.
function buildCompletion(req: RecordedRequest, reply: ScriptedReply, nextId: () => string): Completion {
  const toolCalls = (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? nextId(),
    name: c.name,
    arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
  }));
  const content = reply.content ?? "";
  const promptChars = JSON.stringify(req.messages).length + JSON.stringify(req.tools).length;
  const completionChars = content.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt_tokens = reply.usage?.prompt_tokens ?? Math.max(1, Math.ceil(promptChars / 4));
  const completion_tokens = reply.usage?.completion_tokens ?? Math.max(1, Math.ceil(completionChars / 4));
  return {
    id: `chatcmpl-mock-${nextId().slice("call_mock_".length)}`,
    created: Math.floor(Date.now() / 1000),
    model: req.model || "mock-model",
    content,
    toolCalls,
    contentChunks: reply.contentChunks ?? 4,
    reasoning: reply.reasoning ?? "",
    contentRate: reply.contentRate ?? null,
    cut: reply.cut ?? null,
    stall: reply.stall === true,
    wire: reply.wire ?? {},
    finishReason: reply.wire?.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
    usage: {
      prompt_tokens,
      completion_tokens,
      total_tokens: prompt_tokens + completion_tokens,
      // OpenAI reports prompt-cache hits here; only when the script says so.
      ...(reply.usage?.cached_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: reply.usage.cached_tokens } } : {}),
      ...(reply.wire?.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: reply.wire.reasoningTokens } } : {}),
    },
  };
}

// The non-streaming `chat.completion` object.
function completionJson(c: Completion): unknown {
  return {
    id: c.id,
    object: "chat.completion",
    created: c.created,
    model: c.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: c.content || (c.toolCalls.length ? null : ""),
          refusal: null,
          ...(c.toolCalls.length
            ? { tool_calls: c.toolCalls.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: c.finishReason,
      },
    ],
    usage: c.usage,
    system_fingerprint: "fp_mock",
  };
}

// Writes the SSE stream the way OpenAI does: role delta, content pieces, tool-call pieces, finish, usage, [DONE].
// Writes the same chunk again and again, paced, until the connection or the server closes.
async function drip(res: ServerResponse, how: NonNullable<ScriptedReply["drip"]>, closed: Promise<void>): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  let open = true;
  res.on("close", () => (open = false));
  void closed.then(() => (open = false));
  while (open && !res.destroyed) {
    res.write(how.chunk);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((r) => (timer = setTimeout(r, how.everyMs))), closed]);
    clearTimeout(timer);
  }
}

async function streamCompletion(res: ServerResponse, c: Completion, includeUsage: boolean, closed: Promise<void>): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  const base = { id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, system_fingerprint: "fp_mock" };
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...base, choices, ...(includeUsage ? { usage: null } : {}), ...extra })}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => send([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  delta({ role: "assistant", content: "", refusal: null });
  for (const piece of split(c.reasoning, 2)) delta({ reasoning_content: piece });
  const started = Date.now();
  for (const [i, piece] of split(c.content, c.contentChunks).entries()) {
    // Paced: wait whenever the stream is ahead of its rate (timers are ~1 ms, so pieces go out in small bursts).
    const ahead = c.contentRate ? started + (i * 1000) / c.contentRate - Date.now() : 0;
    if (ahead >= 1) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise((r) => (timer = setTimeout(r, ahead))), closed]);
      clearTimeout(timer);
      if (res.destroyed) return;
    }
    delta({ content: piece });
  }
  if (c.stall) {
    await closed;
    return;
  }
  if (c.cut && c.toolCalls.length) {
    const [t] = c.toolCalls;
    delta({ tool_calls: [{ index: 0, id: t.id, type: "function", function: { name: t.name, arguments: "" } }] });
    for (const piece of split(t.arguments.slice(0, c.cut.at), 2)) delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    // Let the pieces reach the client before the cut, as a connection dropped mid-answer would.
    await new Promise((r) => setTimeout(r, 20));
    if (c.cut.how === "reset") res.socket?.destroy();
    else res.end();
    return;
  }
  const at = (index: number) => (c.wire.noIndex ? {} : { index });
  if (c.wire.toolCallsInOneChunk && c.toolCalls.length) {
    delta({ tool_calls: c.toolCalls.map((t, index) => ({ ...at(index), id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } })) });
  } else {
    c.toolCalls.forEach((t, index) => {
      delta({ tool_calls: [{ ...at(index), id: t.id, type: "function", function: { name: t.name, arguments: "" } }] });
      for (const piece of split(t.arguments, 4)) delta({ tool_calls: [{ ...at(index), function: { arguments: piece } }] });
    });
  }
  delta({}, c.finishReason);
  if (includeUsage && !c.wire.noUsage) send([], { usage: c.usage });
  res.end("data: [DONE]\n\n");
}

// The Responses API's `response` object: output items (a message, function calls) and usage.
function responseObject(c: Completion, status: "in_progress" | "completed"): Record<string, unknown> {
  const done = status === "completed";
  const output = done
    ? [
        ...(c.content
          ? [
              {
                id: `msg_${c.id}`,
                type: "message",
                status: "completed",
                role: "assistant",
                content: [{ type: "output_text", text: c.content, annotations: [] }],
              },
            ]
          : []),
        ...c.toolCalls.map((t) => ({ id: `fc_${t.id}`, type: "function_call", status: "completed", call_id: t.id, name: t.name, arguments: t.arguments })),
      ]
    : [];
  const usage = {
    input_tokens: c.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: c.usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: c.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: c.usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: c.usage.total_tokens,
  };
  return { id: `resp_${c.id}`, object: "response", created_at: c.created, status, model: c.model, output, usage: done ? usage : null };
}

// The Responses API's SSE stream as documented: response.created, output items with text and argument deltas, response.completed.
async function streamResponse(res: ServerResponse, c: Completion): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  let seq = 0;
  const send = (type: string, fields: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`);
  send("response.created", { response: responseObject(c, "in_progress") });
  let outputIndex = 0;
  if (c.content) {
    const itemId = `msg_${c.id}`;
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { id: itemId, type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    send("response.content_part.added", {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of split(c.content, c.contentChunks))
      send("response.output_text.delta", { item_id: itemId, output_index: outputIndex, content_index: 0, delta: piece });
    send("response.output_text.done", { item_id: itemId, output_index: outputIndex, content_index: 0, text: c.content });
    send("response.output_item.done", {
      output_index: outputIndex,
      item: { id: itemId, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: c.content, annotations: [] }] },
    });
    outputIndex++;
  }
  for (const t of c.toolCalls) {
    const itemId = `fc_${t.id}`;
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { id: itemId, type: "function_call", status: "in_progress", call_id: t.id, name: t.name, arguments: "" },
    });
    for (const piece of split(t.arguments, 4)) send("response.function_call_arguments.delta", { item_id: itemId, output_index: outputIndex, delta: piece });
    send("response.function_call_arguments.done", { item_id: itemId, output_index: outputIndex, arguments: t.arguments });
    send("response.output_item.done", {
      output_index: outputIndex,
      item: { id: itemId, type: "function_call", status: "completed", call_id: t.id, name: t.name, arguments: t.arguments },
    });
    outputIndex++;
  }
  send("response.completed", { response: responseObject(c, "completed") });
  res.end();
}

// Cuts text into at most `parts` non-empty pieces.
function split(text: string, parts: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

// An OpenAI-style error body: `{ error: { message, type, param, code } }`.
function sendError(res: ServerResponse, status: number, message?: string): void {
  const kind = ERROR_KINDS[status] ?? { type: "server_error", code: null, message: "The server had an error while processing your request." };
  sendJson(res, status, { error: { message: message ?? kind.message, type: kind.type, param: null, code: kind.code } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

// Message content may be a string or an array of content parts.
/** The text of a message content (a string, or an array of text parts). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}
