type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The `name` of the error that ends a reply past one of its limits (see toProviderError). */
export const REPLY_LIMIT_ERROR = "ReplyLimitError";

/** How long a model's answer may take and how large it may be; 0 or Infinity switches a bound off (tests only). */
export interface BodyLimits {
  /** No bytes for this long: the answer is cut (model.timeoutS). */
  idleMs: number;
  /** From the request to the answer's last byte (model.callDeadlineS). */
  deadlineMs: number;
  /** Bytes of one answer on the wire (model.maxReplyBytes). */
  maxBytes: number;
}

/** The error a reply past a limit fails with: it names the limit and the config key that sets it. */
export interface ReplyLimitError extends Error {
  limit: "deadline" | "size";
  key: "model.callDeadlineS" | "model.maxReplyBytes";
  value: number;
}

/**
 * The client's own timeout stops at the response headers: a stream that goes quiet mid-answer, trickles a few
 * bytes forever, or floods without end would hang the run or fill memory until V8 gives up ("Invalid string
 * length"). This wraps the body so that it fails with a TimeoutError when no bytes come for `idleMs` (a provider
 * error, retried like one), and with a ReplyLimitError (never retried: the same server does the same again) once
 * the whole answer passes its deadline or its size cap.
 */
export function bodyGuard(inner: Fetch, limits: BodyLimits): Fetch {
  return async (input, init) => {
    const startedAt = Date.now();
    const response = await inner(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    // Bytes already came: silence now is an answer cut off, not a server that never answered.
    let received = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await nextRead(reader, limits, startedAt, received);
        if (next instanceof Error) {
          void reader.cancel().catch(() => {});
          controller.error(next);
        } else if (next.done) controller.close();
        else {
          received += next.value.byteLength;
          if (limits.maxBytes > 0 && received > limits.maxBytes) {
            void reader.cancel().catch(() => {});
            controller.error(sizeError(limits.maxBytes));
          } else controller.enqueue(next.value);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

// One read raced against the idle timer and what is left of the deadline; the error to fail the body with, if either ends first.
async function nextRead(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limits: BodyLimits,
  startedAt: number,
  received: number,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>> | Error> {
  const left = limits.deadlineMs > 0 ? startedAt + limits.deadlineMs - Date.now() : Number.POSITIVE_INFINITY;
  if (left <= 0) return deadlineError(limits.deadlineMs);
  const idle = limits.idleMs > 0 ? limits.idleMs : Number.POSITIVE_INFINITY;
  const wait = Math.min(idle, left);
  if (!Number.isFinite(wait)) return reader.read();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), wait)));
  const next = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
  if (next !== "timeout") return next;
  return left <= idle ? deadlineError(limits.deadlineMs) : idleError(limits.idleMs, received > 0);
}

function idleError(idleMs: number, midAnswer: boolean): Error {
  const error = Object.assign(new Error(`the model's response sent nothing for ${Math.round(idleMs / 1000)}s`), { midAnswer });
  error.name = "TimeoutError";
  return error;
}

function deadlineError(deadlineMs: number): ReplyLimitError {
  const seconds = deadlineMs / 1000;
  return limitError(`the model's answer was still coming after ${seconds}s, the limit set by model.callDeadlineS`, "deadline", "model.callDeadlineS", seconds);
}

function sizeError(maxBytes: number): ReplyLimitError {
  return limitError(`the model's answer passed ${maxBytes} bytes, the limit set by model.maxReplyBytes`, "size", "model.maxReplyBytes", maxBytes);
}

function limitError(message: string, limit: ReplyLimitError["limit"], key: ReplyLimitError["key"], value: number): ReplyLimitError {
  const error = Object.assign(new Error(message), { limit, key, value });
  error.name = REPLY_LIMIT_ERROR;
  return error;
}

/** The ReplyLimitError behind `error`, however deep the client wrapped it (a non-streamed body fails inside fetch). */
export function replyLimitOf(error: unknown): ReplyLimitError | null {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && typeof e === "object" && e !== null; depth++) {
    if ((e as { name?: unknown }).name === REPLY_LIMIT_ERROR) return e as ReplyLimitError;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
