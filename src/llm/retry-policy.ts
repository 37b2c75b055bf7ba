import { causeCode, isBadPort } from "./cause-chain.js";

export { isBadPort };

/** How a failed attempt failed, as far as retrying it is concerned. */
export type FailureKind = "bad-port" | "unreachable" | "timeout" | "other";

/** Nothing listens at the address (or the name does not resolve): two quick retries, then the run says so. */
export const UNREACHABLE_RETRIES = 2;
/** A server that accepted the request and sent nothing within `timeoutS`: one more try, so the total stays bounded. */
export const TIMEOUT_RETRIES = 1;

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/**
 * Sorts a failed model call: a port fetch refuses to use (local configuration, never retried), an address nothing
 * answers at, a timeout, or anything else (HTTP statuses, resets: the configured maxRetries apply).
 */
export function failureKind(error: unknown): FailureKind {
  if (isBadPort(error)) return "bad-port";
  const e = (error ?? {}) as { name?: unknown; status?: unknown };
  if (typeof e.status === "number") return "other";
  if (e.name === "TimeoutError" || constructorName(error) === "APIConnectionTimeoutError") return "timeout";
  const code = causeCode(error);
  if (code && UNREACHABLE_CODES.has(code)) return "unreachable";
  return "other";
}

/** How many retries a failure of this kind gets, given the configured maximum. */
export function retriesFor(kind: FailureKind, maxRetries: number): number {
  if (kind === "bad-port") return 0;
  if (kind === "unreachable") return Math.min(maxRetries, UNREACHABLE_RETRIES);
  if (kind === "timeout") return Math.min(maxRetries, TIMEOUT_RETRIES);
  return maxRetries;
}

/** Which retry of how many is about to happen, so messages count down honestly ("retry 2 of 2"). */
export interface RetryCount {
  retry: number;
  of: number;
}

/**
 * Counts the retries of one model call. The client's own loop (maxRetries) stays the outer bound; this stops it
 * earlier for kinds that do not deserve them. One call runs at a time per model, so `settled()` — a response, or a
 * give-up — starts the count again for the next call.
 */
export class RetryCounter {
  private used = 0;
  constructor(private readonly maxRetries: number) {}

  /** The retry about to be made, or null when this failure should end the call. */
  next(error: unknown): RetryCount | null {
    const of = retriesFor(failureKind(error), this.maxRetries);
    if (this.used >= of) {
      this.used = 0;
      return null;
    }
    this.used++;
    return { retry: this.used, of };
  }

  settled(): void {
    this.used = 0;
  }
}

function constructorName(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as { constructor?: { name?: string } }).constructor?.name : undefined;
}

/** Longest `retry-after` waited for; beyond it the provider means "later", not "now". */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Set on a 429/503 handed to the client after the transport spent its Retry-After retries: not retried again. */
export const RETRIES_SPENT_HEADER = "x-yolo-retry-after-spent";

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(raw: string | null | undefined): number | null {
  if (raw == null || raw.trim() === "") return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
