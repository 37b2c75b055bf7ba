import { causeCode } from "./cause-chain.js";
import { NOT_A_COMPLETION } from "./response-guard.js";
import { replyLimitOf } from "./body-guard.js";

/**
 * Which failed model calls are worth another try. Passed to ChatOpenAI as `onFailedAttempt`, so its own
 * backoff (exponential, randomised, `maxRetries` times) does the waiting. Differs from LangChain's default in
 * one place: a 429 without a `retry-after` header is retried with backoff instead of failing at once.
 */
const NO_RETRY_STATUSES = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409, 413, 422]);
const QUOTA_PATTERN = /insufficient[_ ]quota|exceeded your current quota|billing/i;
/** Longest `retry-after` we wait for; beyond it the provider means "later", not "now". */
const MAX_RETRY_AFTER_MS = 60_000;

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
  if (status === 429) {
    if (isQuotaError(e)) throw error;
    const wait = retryAfterMs(e.headers);
    if (wait !== null) {
      if (wait > MAX_RETRY_AFTER_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
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

function retryAfterMs(headers: ErrorLike["headers"]): number | null {
  if (!headers) return null;
  const raw =
    typeof (headers as Headers).get === "function" ? (headers as Headers).get("retry-after") : (headers as Record<string, string | undefined>)["retry-after"];
  if (raw == null || raw === "") return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
