import { ProviderError } from "../errors.js";
import { REPLAY_MISMATCH } from "./recording-replay.js";
import { causeCode, isBadPort } from "./cause-chain.js";
import { NOT_A_COMPLETION } from "./response-guard.js";
import { replyLimitOf } from "./body-guard.js";
import { isQuotaError } from "./retry.js";

export { causeCode };

/** What an error message needs to tell the user where to look. */
export interface ProviderContext {
  /** The environment variable the API key comes from, e.g. "OPENAI_API_KEY". */
  apiKeyEnv: string;
  /** null: the OpenAI default endpoint. */
  baseURL: string | null;
  model: string;
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The fields the openai SDK and ChatOpenAI put on the errors they throw (duck-typed: `openai` is not our dependency). */
interface ClientErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  code?: unknown;
  error?: { message?: unknown; code?: unknown } | null;
  lc_error_code?: unknown;
  rateLimitReason?: unknown;
  retryAfterMs?: unknown;
  cause?: unknown;
}

/**
 * Turns what ChatOpenAI throws into a ProviderError that says what happened and what to do,
 * or returns null when the error did not come from the provider (aborts included: the caller handles those).
 * ChatOpenAI has already retried 429 (with retry-after) and 5xx by the time an error gets here.
 */
export function toProviderError(err: unknown, ctx: ProviderContext): ProviderError | null {
  if (err instanceof ProviderError) return err;
  if (typeof err !== "object" || err === null || isAbort(err)) return null;
  const e = err as ClientErrorLike;
  const where = ctx.baseURL ?? `${DEFAULT_BASE_URL} (the default; set a base URL for a local server)`;
  const detail = providerDetail(e);
  const status = typeof e.status === "number" ? e.status : undefined;
  // Most specific first: what the answer was, then how the connection failed, then the HTTP status.
  const failure =
    answerFailure(err, e, ctx, where, detail) ??
    cutOrSilent(err, e, where, detail) ??
    (status === undefined ? connectionFailure(err, e, where) : statusFailure(status, e, ctx, where, detail));
  return failure ? new ProviderError(failure.message, failure.status, { cause: err }) : null;
}

// What a ProviderError is made of.
type Failure = { message: string; status?: number };

// Failures in what came back (or could not be asked): a replay without this request, an overflowing context, a
// port Node refuses, a reply that is no completion, a reply past yolo's limits.
function answerFailure(err: object, e: ClientErrorLike, ctx: ProviderContext, where: string, detail: string): Failure | null {
  // A replayed session has no answer for this request: the replay's own message says which agent and what differs.
  if (e.error?.code === REPLAY_MISMATCH && typeof e.error.message === "string") return { message: e.error.message, status: 400 };
  if (e.name === "ContextOverflowError") {
    return {
      message:
        `The conversation no longer fits the context window of model "${ctx.model}"${detail}. ` +
        "Use a model with a larger context, or lower the limits that let transcripts grow.",
      status: 400,
    };
  }
  if (isBadPort(err)) {
    const port = portOf(ctx.baseURL);
    return {
      message:
        `The base URL ${where} uses port ${port ?? "(unknown)"}, which Node's HTTP client refuses to connect to ("bad port": ports such as 6000 and 6667 are blocked for safety). ` +
        "This is a local configuration problem, not the server's: run the server on another port (Ollama 11434, LM Studio 1234, vLLM 8000) and update the base URL.",
    };
  }
  if (e.error?.code === NOT_A_COMPLETION && typeof e.error.message === "string") {
    return {
      message:
        `The model provider at ${where} did not answer like an OpenAI-compatible API: ${e.error.message}. ` +
        "Check the base URL points at the API (usually ending in /v1), not at a web page or a proxy's login.",
      status: 502,
    };
  }
  const limit = replyLimitOf(err);
  if (limit) {
    const what = limit.limit === "deadline" ? `took longer than ${limit.value}s` : `was larger than ${limit.value} bytes`;
    return {
      message:
        `The model provider at ${where} sent an answer that ${what} (${limit.key}), so the call was stopped: ${limit.message}. ` +
        `Nothing of the answer was used; the run is checkpointed and can be resumed. Check the server, or raise ${limit.key} in yolo.config.ts if the answer is legitimate.`,
    };
  }
  return null;
}

// A provider that went silent (before or in the middle of its answer) or cut the stream.
function cutOrSilent(err: object, e: ClientErrorLike, where: string, detail: string): Failure | null {
  if (e.name === "TimeoutError" && (err as { midAnswer?: unknown }).midAnswer === true) {
    return {
      message:
        `The model provider at ${where} went silent in the middle of its answer: the stream was cut mid-answer${detail}. ` +
        "Nothing of the cut answer was used; the run is checkpointed and can be resumed. Check the server, or raise model.timeoutS if it is just slow.",
    };
  }
  if (e.name === "TimeoutError" || constructorName(err) === "APIConnectionTimeoutError") {
    return {
      message:
        `The model provider at ${where} did not answer in time, even after retries. ` +
        "Check that the server is up and not overloaded, or raise the model timeout.",
    };
  }
  if (isStreamCut(err)) {
    const code = causeCode(err);
    return {
      message:
        `The model provider at ${where} closed the connection in the middle of its answer${code ? ` (${code})` : ""}, even after retries: the stream was cut mid-answer. ` +
        "Nothing of the cut answer was used; the run is checkpointed and can be resumed.",
    };
  }
  return null;
}

// No HTTP status: a connection that failed or closed early, or (null) an error that is not the provider's.
function connectionFailure(err: object, e: ClientErrorLike, where: string): Failure | null {
  if (constructorName(err) !== "APIConnectionError" && e.message !== "Connection error.") return null;
  const code = causeCode(err);
  if (code && CLOSED_CODES.has(code)) {
    return {
      message:
        `The model provider at ${where} accepted the connection and closed it before answering (${code}), even after retries. ` +
        "Check the server's log: it may have crashed or refused the request.",
    };
  }
  return {
    message: `Could not connect to the model provider at ${where}${code ? ` (${code})` : ""}. Check that the server is running and the base URL is right.`,
  };
}

// An HTTP error status: a refused key, an unknown model, a rate limit, a server failure, or any other refusal.
function statusFailure(status: number, e: ClientErrorLike, ctx: ProviderContext, where: string, detail: string): Failure {
  if (status === 401 || status === 403 || e.lc_error_code === "MODEL_AUTHENTICATION") {
    return {
      message: `The model provider rejected the API key (${status})${detail}. ` + `Check ${ctx.apiKeyEnv}: it must hold a valid key for ${where}.`,
      status,
    };
  }
  if (status === 404 || e.lc_error_code === "MODEL_NOT_FOUND") {
    return {
      message:
        `Model "${ctx.model}" was not found at ${where} (404)${detail}. ` +
        "Check the model name, and that the base URL ends with the API prefix (usually /v1).",
      status,
    };
  }
  if (status === 429 || e.lc_error_code === "MODEL_RATE_LIMIT") return { message: rateLimitMessage(e, where, detail), status };
  if (status >= 500) {
    return {
      message:
        `The model provider at ${where} failed with HTTP ${status} even after retries${detail}. ` +
        "Try again later; the run is checkpointed and can be resumed.",
      status,
    };
  }
  return { message: `The model provider at ${where} refused the request for model "${ctx.model}" (HTTP ${status})${detail}.`, status };
}

// By now the retry policy (retry.ts) has retried every 429 but quota errors and too-long retry-after hints.
function rateLimitMessage(e: ClientErrorLike, where: string, detail: string): string {
  const reason = e.rateLimitReason;
  const quota = reason === "insufficient_quota" || reason === "quota_message" || isQuotaError(e);
  if (quota) return `The model provider at ${where} reports the account's quota is used up (429)${detail}. Check the plan or billing, or use another key.`;
  if (reason === "retry_after_too_large" && typeof e.retryAfterMs === "number") {
    return `The model provider at ${where} is rate limiting (429) and asks to wait ${Math.ceil(e.retryAfterMs / 1000)} s${detail}. Resume the run later.`;
  }
  const retried = reason === "retry_after_hint" ? ", even after retries" : "";
  return `The model provider at ${where} is rate limiting requests (429)${retried}${detail}. Wait and resume the run, or lower the request rate.`;
}

/**
 * The response had started and its body broke off (the connection closed mid-stream): fetch fails the body
 * with a bare `TypeError: terminated`. A failure before the response is the SDK's APIConnectionError instead,
 * already retried by the client; this one is not, so the agent loop retries the call itself.
 */
export function isStreamCut(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown } | null;
  return typeof e === "object" && e !== null && e.name === "TypeError" && e.message === "terminated";
}

// Aborts come from the caller's signal (DOMException / "Aborted"), the SDK (APIUserAbortError) or ChatOpenAI's stream loop ("AbortError").
function isAbort(err: object): boolean {
  const { name, message } = err as { name?: unknown; message?: unknown };
  return (
    name === "AbortError" ||
    constructorName(err) === "APIUserAbortError" ||
    message === "AbortError" ||
    message === "Aborted" ||
    message === "Request was aborted."
  );
}

// The provider's own words, without the status prefix the SDK adds or LangChain's troubleshooting URL.
function providerDetail(e: ClientErrorLike): string {
  const raw = typeof e.error?.message === "string" ? e.error.message : typeof e.message === "string" ? e.message : "";
  const text = raw
    .replace(/\s*Troubleshooting URL:.*$/s, "")
    .replace(/^\d{3}\s+/, "")
    .replace(/[.\s]+$/, "");
  if (!text || /^status code \(no body\)$/.test(text)) return "";
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** The server was reached and hung up: not a "could not connect". */
const CLOSED_CODES = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "UND_ERR_CLOSED"]);

function portOf(baseURL: string | null): string | null {
  if (!baseURL) return null;
  try {
    const url = new URL(baseURL);
    return url.port || (url.protocol === "https:" ? "443" : "80");
  } catch {
    return null;
  }
}

function constructorName(err: object): string | undefined {
  return (err as { constructor?: { name?: string } }).constructor?.name;
}
