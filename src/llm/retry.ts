import { causeCode } from "./cause-chain.js";
import { NOT_A_COMPLETION } from "./response-guard.js";
import { replyLimitOf } from "./body-guard.js";
import { MAX_RETRY_AFTER_MS, RETRIES_SPENT_HEADER, retryAfterMs } from "./retry-policy.js";

/**
 * Which failed model calls are worth another try. Passed to ChatOpenAI as `onFailedAttempt`, so its own
 * backoff (exponential, randomised, `maxRetries` times) does the waiting. Differs from LangChain's default in
 * one place: a 429 without a `retry-after` header is retried with backoff instead of failing at once.
 */
const NO_RETRY_STATUSES = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409, 413, 422]);
const QUOTA_PATTERN = /insufficient[_ ]quota|exceeded your current quota|billing/i;

interface ErrorLike {
  name?: string;
  message?: string;
  status?: number;
  code?: string;
  error?: { code?: string; message?: string } | null;
  headers?: Headers | Record<string, string | undefined>;
  response?: { status?: number };
}

/** Throws to stop retrying; returns (after any `retry-after` wait) to let the caller try again. */
export async function onFailedAttempt(error: unknown): Promise<void> {
  const e = (error ?? {}) as ErrorLike;
  if (e.name === "AbortError" || /^(Cancel|AbortError|Request was aborted)/.test(e.message ?? "")) throw error;
  const status = e.status ?? e.response?.status;
  if (status !== undefined && NO_RETRY_STATUSES.has(status)) throw error;
  // A body that is not a model reply (an HTML page at the base URL) comes back the same every time.
  if (e.error?.code === NOT_A_COMPLETION) throw error;
  // An answer past its deadline or size cap: the same server would do the same again.
  if (replyLimitOf(error)) throw error;
  if (status === 429 && isQuotaError(e)) throw error;
  // A Retry-After the transport honoured is not waited for again here (src/llm/retry-after.ts): what reaches this
  // point asked for too long a wait (the provider means "later"), or outlasted the retries it was given.
  if (status === 429 || status === 503) {
    if (header(e.headers, RETRIES_SPENT_HEADER) !== null) throw error;
    const wait = retryAfterMs(header(e.headers, "retry-after"));
    if (wait !== null && wait > MAX_RETRY_AFTER_MS) throw error;
  }
}

/** Why a call failed, in a few words: the HTTP status, or the network error's code (ECONNREFUSED), or its message. */
export function retryReason(error: unknown): string {
  const e = (error ?? {}) as ErrorLike & { cause?: { message?: string; cause?: { message?: string } } };
  const status = e.status ?? e.response?.status;
  if (status !== undefined) return `HTTP ${status}`;
  const code = causeCode(error);
  if (code) return code;
  // fetch's own refusals (a blocked port, say) carry no code, only the innermost message.
  const inner = e.cause?.cause?.message ?? e.cause?.message;
  const message = (e.message ?? String(error)).split("\n")[0];
  return (inner ? `${message} ${inner}` : message).slice(0, 120);
}

/** A 429 that means the account's quota is used up: waiting will not help. */
export function isQuotaError(error: unknown): boolean {
  const e = (error ?? {}) as ErrorLike;
  return e.code === "insufficient_quota" || e.error?.code === "insufficient_quota" || QUOTA_PATTERN.test(`${e.message ?? ""} ${e.error?.message ?? ""}`);
}

function header(headers: ErrorLike["headers"], name: string): string | null {
  if (!headers) return null;
  return (typeof (headers as Headers).get === "function" ? (headers as Headers).get(name) : (headers as Record<string, string | undefined>)[name]) ?? null;
}
