import { noToolCallingAdvice, parseTextToolCalls } from "../agents/text-tool-calls.js";
import { toProviderError } from "../llm/errors.js";
import { PING_TOOL, probeModels, probeToolCall, type ToolProbe } from "../llm/doctor.js";
import { FALLBACK_CONTEXT_WINDOW, knownContextWindow } from "../middleware/tokens.js";
import type { CheckResult, DoctorCheck, DoctorContext, FixFact } from "./types.js";

const OPENAI = "https://api.openai.com/v1";

/**
 * The configured endpoint and model: reachable, key accepted, model served, a tool-call round trip, streamed
 * usage, a known context window. A check that cannot be decided because an earlier one failed is "skip".
 */
export const endpointCheck: DoctorCheck = {
  id: "endpoint",
  async run(ctx: DoctorContext): Promise<CheckResult[]> {
    const { model } = ctx.config;
    const base = model.baseURL ?? OPENAI;
    const c = collector(ctx);
    if (!model.apiKey && !model.baseURL) {
      c.push(
        "endpoint",
        "endpoint reachable",
        "fail",
        `${model.apiKeyEnv} is not set and no base URL is configured`,
        `Set ${model.apiKeyEnv}, or point OPENAI_BASE_URL (or model.baseURL) at a local server: Ollama http://localhost:11434/v1, LM Studio http://localhost:1234/v1, vLLM http://localhost:8000/v1, llama.cpp http://localhost:8080/v1.`,
      );
      return c.skipRest(["key", "model", "tools", "usage"], "no endpoint");
    }
    const listing = await checkListing(ctx, base, c);
    if ("done" in listing) return listing.done;
    const { served, unlisted } = listing;

    let probe: ToolProbe;
    try {
      probe = await probeToolCall({
        name: model.name,
        baseURL: model.baseURL,
        apiKey: model.apiKey,
        temperature: model.temperature,
        timeoutS: ctx.timeoutS,
        api: model.api,
        reasoningEffort: model.reasoningEffort,
        fetch: ctx.fetch,
      });
    } catch (error) {
      return chatFailed(error, ctx, base, served, c, unlisted);
    }
    c.push("key", "API key accepted", "ok", model.apiKey ? "accepted" : "none needed");
    if (unlisted) c.push("model", "model exists", "warn", `${unlistedWords(model.name, unlisted)}, but it answered: served under a name the list leaves out`);
    else c.push("model", "model exists", "ok", served ? `"${model.name}" is served` : `"${model.name}" answered (GET /models not served)`);
    c.out.push(toolsResult(probe, model.name));
    c.push(
      "usage",
      "streamed usage",
      probe.usageReported ? "ok" : "warn",
      probe.usageReported ? "reported by the server" : "the server reports no usage in streams: yolo estimates tokens (shown with ~)",
      probe.usageReported ? undefined : "Token budgets count the estimates; update the server if it can report usage (stream_options.include_usage).",
      probe.usageReported ? undefined : { kind: "usage-estimated" },
    );
    return [...c.out, contextResult(ctx)];
  },
};

// One run's results in order; `skipRest` ends the run with the checks an earlier failure leaves undecided.
function collector(ctx: DoctorContext) {
  const out: CheckResult[] = [];
  const push = (id: string, title: string, status: CheckResult["status"], detail: string, fix?: string, fixFact?: FixFact) =>
    out.push({ id, title, status, detail, ...(fix ? { fix } : {}), ...(fixFact ? { fixFact } : {}) });
  const skipRest = (from: string[], why: string) => {
    for (const [id, title] of REST.filter(([id]) => from.includes(id))) push(id, title, "skip", why);
    return [...out, contextResult(ctx)];
  };
  return { out, push, skipRest };
}
type Collector = ReturnType<typeof collector>;

// GET /models: the endpoint answers, the key is not refused, the model is among those served (when it lists them).
// Either the served ids (null when the server lists none) or the run's results, ended.
async function checkListing(
  ctx: DoctorContext,
  base: string,
  c: Collector,
): Promise<{ served: string[] | null; unlisted?: string[] } | { done: CheckResult[] }> {
  const { model } = ctx.config;
  const listed = await probeModels(base, model.apiKey, ctx.timeoutS * 1000, ctx.fetch as typeof fetch | undefined);
  if (listed.kind === "unreachable") {
    const fix = listed.badPort
      ? 'Node refuses this port ("bad port"): run the server on another port and update the base URL.'
      : "Start the server, or fix the base URL (it usually ends in /v1).";
    c.push("endpoint", "endpoint reachable", "fail", `${base}: ${listed.reason}`, fix);
    return { done: c.skipRest(["key", "model", "tools", "usage"], "endpoint unreachable") };
  }
  c.push("endpoint", "endpoint reachable", "ok", `${base} answers (GET /models: HTTP ${listed.status})`);
  if (listed.kind === "status" && (listed.status === 401 || listed.status === 403)) {
    c.push("key", "API key accepted", "fail", `rejected (HTTP ${listed.status})`, `Check ${model.apiKeyEnv}: it must hold a valid key for ${base}.`);
    return { done: c.skipRest(["model", "tools", "usage"], "key rejected") };
  }
  const ids = listed.kind === "list" ? listed.ids : null;
  // The list is advice: a model it leaves out (an Azure deployment, a LiteLLM wildcard route, a router alias) may be
  // served; the tool-call request that follows decides.
  return ids?.length && !ids.includes(model.name) ? { served: null, unlisted: ids } : { served: ids };
}

// What the list said of a model it leaves out, naming a few it lists.
function unlistedWords(name: string, ids: string[]): string {
  return `"${name}" is not among the ${ids.length} models GET /models lists (${ids.slice(0, 8).join(", ")}${ids.length > 8 ? ", …" : ""})`;
}

// The tool-call request failed: a refused key or an unknown model says so; anything else fails the round trip.
function chatFailed(error: unknown, ctx: DoctorContext, base: string, served: string[] | null, c: Collector, unlisted?: string[]): CheckResult[] {
  const { model } = ctx.config;
  const mapped = toProviderError(error, { apiKeyEnv: model.apiKeyEnv, baseURL: model.baseURL, model: model.name });
  const message = mapped?.message ?? (error as Error).message;
  const status = mapped?.status;
  if (status === 401 || status === 403) {
    c.push(
      "key",
      "API key accepted",
      "fail",
      `rejected by the chat request (HTTP ${status})`,
      `Check ${model.apiKeyEnv}: it must hold a valid key for ${base}.`,
    );
    return c.skipRest(["model", "tools", "usage"], "key rejected");
  }
  const listed = served ?? unlisted;
  c.push("key", "API key accepted", listed ? "ok" : "skip", listed ? "accepted (GET /models)" : "not decided: the chat request failed");
  if (status === 404) {
    c.push(
      "model",
      "model exists",
      "fail",
      unlisted ? `${unlistedWords(model.name, unlisted)}, and a request naming it was refused (HTTP 404)` : `"${model.name}" was not found (HTTP 404)`,
      unlisted
        ? "Set model.name in yolo.config.ts (or YOLO_MODEL) to a served model, or pull/load it on the server."
        : "Check the model name and that the base URL ends with the API prefix (usually /v1).",
      unlisted ? { kind: "model-not-served" } : undefined,
    );
    return c.skipRest(["tools", "usage"], "model not found");
  }
  c.push("model", "model exists", served ? "ok" : "skip", served ? `"${model.name}" is served` : "not decided");
  c.push("tools", "tool-call round trip", "fail", message.slice(0, 400), "Fix the failure above; yolo needs one streamed request with tools to work.");
  return c.skipRest(["usage"], "the chat request failed");
}

const REST: [string, string][] = [
  ["key", "API key accepted"],
  ["model", "model exists"],
  ["tools", "tool-call round trip"],
  ["usage", "streamed usage"],
];

function toolsResult(probe: ToolProbe, model: string): CheckResult {
  const base = { id: "tools", title: "tool-call round trip" };
  if (probe.nativeCalls > 0) return { ...base, status: "ok", detail: "a native tool call, and an answer to its result" };
  const text = parseTextToolCalls(probe.text);
  if (text?.calls.some((c) => c.name === PING_TOOL)) {
    return {
      ...base,
      status: "warn",
      detail: "the model wrote the call as text; yolo parses it, but native tool calls are more reliable",
      fix: "vLLM: --enable-auto-tool-choice --tool-call-parser hermes; llama.cpp: llama-server --jinja.",
    };
  }
  return {
    ...base,
    status: "fail",
    detail: `no tool call came back${probe.text ? ` (it answered: ${JSON.stringify(probe.text.slice(0, 120))})` : ""}`,
    fix: noToolCallingAdvice(model),
  };
}

function contextResult(ctx: DoctorContext): CheckResult {
  const { name } = ctx.config.model;
  const configured = ctx.config.context.contextWindows[name];
  const window = knownContextWindow(name);
  const base = { id: "context", title: "context window" };
  if (configured !== undefined) return { ...base, status: "ok", detail: `${configured} tokens (configured)` };
  if (window !== null) return { ...base, status: "ok", detail: `${window} tokens (built in for "${name}")` };
  return {
    ...base,
    status: "warn",
    detail: `unknown for "${name}": ${FALLBACK_CONTEXT_WINDOW} tokens assumed`,
    fix: `Set context.contextWindows: { "${name}": <tokens> } in yolo.config.ts (summarization starts at context.summarizeAt of it).`,
  };
}
