import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { agentOf, normalizeRequest, type NormalizeContext } from "./recording-match.js";

/** Version of the session file format (one JSON object per line). */
export const SESSION_FORMAT_VERSION = 1;

/** One line of a session file: a model request (normalised) and the HTTP response it got, verbatim. */
export interface RecordedExchange {
  v: typeof SESSION_FORMAT_VERSION;
  /** The agent that asked (from its system prompt), for people reading the file. */
  agent: string | null;
  /** The request body with the project root as `<root>` and the thread id as `<thread>`. No headers: no API key. */
  request: Record<string, unknown>;
  /** Status, content type and the whole body (the SSE text of a streamed completion). */
  response: { status: number; contentType: string; body: string };
}

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface Recorder {
  /** The fetch to give the OpenAI client: the real one, with every chat completion written to the session file. */
  fetch: FetchLike;
  /** Resolves when every exchange whose response has ended is on disk. */
  flush(): Promise<void>;
}

/**
 * Records every chat-completions exchange to `file` as JSON lines, in request order, while passing the
 * response through untouched (the body is teed, so streaming still streams). An exchange is written once its
 * response has been read to the end, so a run killed mid-answer leaves no half exchange behind.
 * `append: false` starts a new file (a new run); `true` continues it (a resume).
 */
export function createRecorder(opts: { file: string; append: boolean; context: NormalizeContext; fetch?: FetchLike }): Recorder {
  const base = opts.fetch ?? (globalThis.fetch as FetchLike);
  mkdirSync(dirname(opts.file), { recursive: true });
  if (!opts.append) writeFileSync(opts.file, "");
  // Writes are chained so the file keeps request order even if a later response ends first.
  let chain: Promise<void> = Promise.resolve();

  const fetch: FetchLike = async (input, init) => {
    const response = await base(input, init);
    const body = parseBody(init?.body);
    if (!body || !isModelRequest(input) || !response.body) return response;
    const [mine, theirs] = response.body.tee();
    const text = new Response(mine).text();
    const request = normalizeRequest(body, opts.context) as Record<string, unknown>;
    chain = chain.then(async () => {
      let bodyText: string;
      try {
        bodyText = await text;
      } catch {
        return; // the response was cut off (abort, kill): nothing to replay
      }
      const exchange: RecordedExchange = {
        v: SESSION_FORMAT_VERSION,
        agent: agentOf(request),
        request,
        response: { status: response.status, contentType: response.headers.get("content-type") ?? "", body: bodyText },
      };
      appendFileSync(opts.file, `${JSON.stringify(exchange)}\n`);
    });
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch, flush: () => chain };
}

/** True for a request to `…/chat/completions`, however the client passed the URL. */
export function isChatCompletions(input: string | URL | Request): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return /\/chat\/completions(?:\?|$)/.test(url);
}

/** A model request: Chat Completions, or the Responses API (`…/responses`, `model.api: "responses"`). */
export function isModelRequest(input: string | URL | Request): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return isChatCompletions(input) || /\/responses(?:\?|$)/.test(url);
}

/** The JSON body of a request, or null when it has none the recorder understands. */
export function parseBody(body: unknown): Record<string, unknown> | null {
  if (typeof body !== "string") return null;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
