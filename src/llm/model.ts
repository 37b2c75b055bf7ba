import { ChatOpenAI } from "@langchain/openai";
import { onFailedAttempt } from "./retry.js";

/** What the model factory needs, already resolved from config, environment and flags. */
export interface ChatModelOptions {
  name: string;
  /** null: the OpenAI default endpoint. */
  baseURL: string | null;
  /** null: a placeholder is sent, since local servers need no key. */
  apiKey: string | null;
  /** null: leave it to the server's default (some reasoning models reject any value). */
  temperature: number | null;
  /** ChatOpenAI's own retry: 429 and 5xx with backoff, honouring retry-after; never 400/401/403/404. */
  maxRetries: number;
  timeoutS: number;
  /** Replaces the HTTP client's fetch: `--record` wraps the real one, `--replay` never touches the network. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

/**
 * Builds the chat model for any OpenAI-compatible endpoint.
 * `streaming` is deliberately left unset: `.stream()` and LangGraph's "messages" mode stream anyway,
 * while `streaming: true` makes `invoke()` fetch tokenizer data from the internet and hang offline.
 */
export function createChatModel(opts: ChatModelOptions): ChatOpenAI {
  const configuration = { ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) };
  return new ChatOpenAI({
    model: opts.name,
    apiKey: opts.apiKey ?? "not-needed",
    ...(Object.keys(configuration).length ? { configuration } : {}),
    ...(opts.temperature === null ? {} : { temperature: opts.temperature }),
    maxRetries: opts.maxRetries,
    onFailedAttempt,
    timeout: opts.timeoutS * 1000,
    streamUsage: true,
  });
}
