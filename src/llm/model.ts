import { ChatOpenAI } from "@langchain/openai";
import { onFailedAttempt, retryReason } from "./retry.js";

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
  /** Told about each failed call that will be tried again (with why), so a run can say it is retrying. */
  onRetry?: (reason: string) => void;
}

/**
 * Builds the chat model for any OpenAI-compatible endpoint.
 * `streaming` is deliberately left unset: `.stream()` and LangGraph's "messages" mode stream anyway,
 * while `streaming: true` makes `invoke()` fetch tokenizer data from the internet and hang offline.
 */
export function createChatModel(opts: ChatModelOptions): ChatOpenAI {
  const fetchImpl = idleGuard(opts.fetch ?? ((input, init) => globalThis.fetch(input, init)), opts.timeoutS * 1000);
  const configuration = { ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), fetch: fetchImpl };
  return new ChatOpenAI({
    model: opts.name,
    apiKey: opts.apiKey ?? "not-needed",
    ...(Object.keys(configuration).length ? { configuration } : {}),
    ...(opts.temperature === null ? {} : { temperature: opts.temperature }),
    maxRetries: opts.maxRetries,
    onFailedAttempt: async (error: unknown) => {
      await onFailedAttempt(error);
      opts.onRetry?.(retryReason(error));
    },
    timeout: opts.timeoutS * 1000,
    streamUsage: true,
  });
}

type Fetch = NonNullable<ChatModelOptions["fetch"]>;

/**
 * The client's own timeout stops at the response headers: a stream that goes quiet mid-answer would hang the run.
 * This fails the body with a TimeoutError (a provider error, retried like one) when no bytes come for `idleMs`.
 */
export function idleGuard(inner: Fetch, idleMs: number): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const idle = new Promise<"idle">((resolve) => (timer = setTimeout(() => resolve("idle"), idleMs)));
        const next = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
        if (next === "idle") {
          void reader.cancel().catch(() => {});
          const error = new Error(`the model's response sent nothing for ${Math.round(idleMs / 1000)}s`);
          error.name = "TimeoutError";
          controller.error(error);
        } else if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
