import { ChatOpenAI } from "@langchain/openai";
import { MODEL_REPLY_DEFAULTS } from "../config/defaults.js";
import { bodyGuard } from "./body-guard.js";
import { completionGuard } from "./response-guard.js";
import { onFailedAttempt, retryReason } from "./retry.js";
import { RetryCounter, type RetryCount } from "./retry-policy.js";
import { retryAfterFetch, type RetryAfterOptions } from "./retry-after.js";
import { isReasoningModel } from "./reasoning.js";

/** What the model factory needs, already resolved from config, environment and flags. */
export interface ChatModelOptions {
  name: string;
  /** null: the OpenAI default endpoint. */
  baseURL: string | null;
  /** null: a placeholder is sent, since local servers need no key. */
  apiKey: string | null;
  /** null: leave it to the server's default (some reasoning models reject any value). */
  temperature: number | null;
  /** Retries: 429 and 5xx with ChatOpenAI's backoff, or after exactly a Retry-After's wait; never 400/401/403/404. */
  maxRetries: number;
  timeoutS: number;
  /** From the request to the answer's last byte, in seconds (model.callDeadlineS; default MODEL_REPLY_DEFAULTS). */
  callDeadlineS?: number;
  /** Largest answer on the wire, in bytes (model.maxReplyBytes; default MODEL_REPLY_DEFAULTS). */
  maxReplyBytes?: number;
  /** Replaces the HTTP client's fetch: `--record` wraps the real one, `--replay` never touches the network. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Told about each failed call that will be tried again (why, and which retry of how many), so a run can say it is retrying. */
  onRetry?: (reason: string, count: RetryCount) => void;
  /** How a Retry-After wait is waited (tests pass one that records it); default: a timer. */
  sleep?: RetryAfterOptions["sleep"];
  /** "chat" (default): Chat Completions; "responses": the OpenAI Responses API (`/v1/responses`). */
  api?: "chat" | "responses";
  /** Sent as `reasoning_effort` (`reasoning.effort` on the Responses API); null: the server's default. */
  reasoningEffort?: string | null;
}

/**
 * Builds the chat model for any OpenAI-compatible endpoint.
 * `streaming` is deliberately left unset: `.stream()` and LangGraph's "messages" mode stream anyway,
 * while `streaming: true` makes `invoke()` fetch tokenizer data from the internet and hang offline.
 */
export function createChatModel(opts: ChatModelOptions): ChatOpenAI {
  const retries = new RetryCounter(opts.maxRetries);
  const transport = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // Any HTTP answer ends the count of connection retries; the next call starts again from zero.
  const settling: Fetch = (input, init) => transport(input, init).then((response) => (response.ok && retries.settled(), response));
  const waiting = retryAfterFetch(settling, { maxRetries: opts.maxRetries, onRetry: opts.onRetry, sleep: opts.sleep });
  const limits = {
    idleMs: opts.timeoutS * 1000,
    deadlineMs: (opts.callDeadlineS ?? MODEL_REPLY_DEFAULTS.callDeadlineS) * 1000,
    maxBytes: opts.maxReplyBytes ?? MODEL_REPLY_DEFAULTS.maxReplyBytes,
  };
  const fetchImpl = completionGuard(bodyGuard(waiting, limits));
  const configuration = { ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), fetch: fetchImpl };
  const reasoning = isReasoningModel(opts.name);
  return new ChatOpenAI({
    model: opts.name,
    apiKey: opts.apiKey ?? "not-needed",
    ...(Object.keys(configuration).length ? { configuration } : {}),
    // Reasoning models (o-series, gpt-5) reject any temperature but the default: an agent's own is not sent to them.
    ...(opts.temperature === null || reasoning ? {} : { temperature: opts.temperature }),
    ...reasoningParams(opts, reasoning),
    ...(opts.api === "responses" ? { useResponsesApi: true } : {}),
    maxRetries: opts.maxRetries,
    onFailedAttempt: async (error: unknown) => {
      await onFailedAttempt(error);
      const count = retries.next(error);
      if (!count) throw error;
      opts.onRetry?.(retryReason(error), count);
    },
    timeout: opts.timeoutS * 1000,
    streamUsage: true,
  });
}

/**
 * `reasoning_effort` for the models LangChain knows as reasoning models goes through its own `reasoning` option
 * (it sends it only for those); for any other name (gpt-oss on vLLM, say) it is sent as configured, never dropped.
 */
function reasoningParams(opts: ChatModelOptions, reasoning: boolean): Record<string, unknown> {
  if (!opts.reasoningEffort) return {};
  if (reasoning) return { reasoning: { effort: opts.reasoningEffort } };
  return { modelKwargs: opts.api === "responses" ? { reasoning: { effort: opts.reasoningEffort } } : { reasoning_effort: opts.reasoningEffort } };
}

type Fetch = NonNullable<ChatModelOptions["fetch"]>;
