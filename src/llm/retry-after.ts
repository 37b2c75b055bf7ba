import { isQuotaError } from "./retry.js";
import { MAX_RETRY_AFTER_MS, RETRIES_SPENT_HEADER, type RetryCount, retryAfterMs } from "./retry-policy.js";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const WAITED_STATUSES = new Set([429, 503]);

export interface RetryAfterOptions {
  maxRetries: number;
  /** Told before each wait, as the client's own retries are. */
  onRetry?: (reason: string, count: RetryCount) => void;
  /** Waits `ms` (or rejects when `signal` aborts); injectable so tests need not wait. */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
}

/**
 * A 429 or 503 with `Retry-After` is retried here, after exactly the wait the server asked for. Left to the client,
 * the header's wait came first and its own exponential backoff after it, so it waited longer than asked. A
 * used-up quota, a wait beyond MAX_RETRY_AFTER_MS, or a body that cannot be sent twice goes to the client as before.
 */
export function retryAfterFetch(inner: Fetch, opts: RetryAfterOptions): Fetch {
  const sleep = opts.sleep ?? abortableSleep;
  return async (input, init) => {
    for (let retry = 1; ; retry++) {
      const response = await inner(input, init);
      const wait = await honouredWait(response, init);
      if (wait === null) return response;
      if (retry > opts.maxRetries) return marked(response);
      opts.onRetry?.(`HTTP ${response.status}`, { retry, of: opts.maxRetries });
      await response.body?.cancel().catch(() => {});
      await sleep(wait, init?.signal);
    }
  };
}

// The wait a response asks for, when this layer should honour it; null: hand the response on.
async function honouredWait(response: Response, init: RequestInit | undefined): Promise<number | null> {
  if (!WAITED_STATUSES.has(response.status)) return null;
  const wait = retryAfterMs(response.headers.get("retry-after"));
  if (wait === null || wait > MAX_RETRY_AFTER_MS) return null;
  if (init?.body != null && typeof init.body !== "string") return null;
  const text = await response
    .clone()
    .text()
    .catch(() => "");
  return isQuotaError({ message: text }) ? null : wait;
}

function marked(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set(RETRIES_SPENT_HEADER, "1");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function abortableSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", stop, { once: true });
  });
}
