import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.js";
import { isModelRequest, parseBody, SESSION_FORMAT_VERSION, type FetchLike, type RecordedExchange } from "./recording.js";
import { agentOf, canonicalJson, comparable, firstDifference, normalizeRequest, type NormalizeContext } from "./recording-match.js";

/** The `error.type` of the HTTP 400 a replay answers a request it has no recording for (see llm/errors.ts). */
export const REPLAY_MISMATCH = "replay_mismatch";

/** Reads a session file written by `--record`; any unreadable line is a ConfigError naming the file and line. */
export function loadSession(file: string): RecordedExchange[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const said = `Cannot read the session to replay, ${file} (${(error as Error).message}).`;
    throw new ConfigError(`${said} Record one first.`, [], { fact: { kind: "replay-unreadable", file, said } });
  }
  const problems: string[] = [];
  const exchanges: RecordedExchange[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const value = JSON.parse(line) as RecordedExchange;
      if (value?.v !== SESSION_FORMAT_VERSION) problems.push(`line ${i + 1}: session format version ${String(value?.v)}, expected ${SESSION_FORMAT_VERSION}`);
      else if (typeof value.request !== "object" || typeof value.response?.body !== "string" || typeof value.response.status !== "number") {
        problems.push(`line ${i + 1}: not a recorded exchange (request, response.status, response.body)`);
      } else exchanges.push(value);
    } catch (error) {
      problems.push(`line ${i + 1}: not JSON (${(error as Error).message})`);
    }
  });
  if (problems.length) throw new ConfigError(`${file} is not a usable yolo session:`, problems);
  if (!exchanges.length) throw new ConfigError(`${file} holds no recorded exchanges; record a session first.`, [], { fact: { kind: "replay-empty", file } });
  return exchanges;
}

/** The model a session was recorded with (its first exchange's), or undefined when the file does not say. */
export function recordedModel(exchanges: readonly RecordedExchange[] | undefined): string | undefined {
  const model = exchanges?.[0]?.request.model;
  return typeof model === "string" && model.trim() ? model : undefined;
}

export interface Replayer {
  /** A fetch that answers chat completions from the session and never touches the network. */
  fetch: FetchLike;
  /** How many exchanges were served so far. */
  served(): number;
}

/**
 * Serves recorded responses back. A request gets the next exchange in order when it matches; otherwise the
 * first unused exchange that matches (a resumed thread starts part-way through its session). A request that
 * matches nothing gets an HTTP 400 whose message names the agent and the first difference from the exchange
 * expected next, so the run stops with a clear provider error (exit 5) instead of diverging silently.
 */
export function createReplayer(opts: { exchanges: RecordedExchange[]; context: NormalizeContext; file: string }): Replayer {
  const { exchanges } = opts;
  const keys = exchanges.map((e) => canonicalJson(comparable(e.request)));
  const used = new Array<boolean>(exchanges.length).fill(false);
  let cursor = 0;
  let served = 0;
  let requests = 0;

  const fetch: FetchLike = async (input, init) => {
    const body = parseBody(init?.body);
    if (!body || !isModelRequest(input)) {
      return errorResponse(
        404,
        `replay: yolo only replays model requests (chat completions, responses); no recording for ${String(input)}`,
        "replay_unsupported",
      );
    }
    requests++;
    const request = normalizeRequest(body, opts.context);
    const key = canonicalJson(comparable(request));
    let index = cursor < exchanges.length && !used[cursor] && keys[cursor] === key ? cursor : -1;
    if (index < 0) index = keys.findIndex((k, i) => !used[i] && k === key);
    if (index < 0) return errorResponse(400, mismatchMessage(request, requests), REPLAY_MISMATCH);
    used[index] = true;
    cursor = index + 1;
    served++;
    const { response } = exchanges[index];
    return new Response(response.body, { status: response.status, headers: { "content-type": response.contentType || "application/json" } });
  };

  // Names the asking agent and says how the request differs from the exchange the recording expected next.
  function mismatchMessage(request: unknown, n: number): string {
    const agent = agentOf(request) ?? "unknown";
    const nextIndex = used.indexOf(false, cursor) >= 0 ? used.indexOf(false, cursor) : used.indexOf(false);
    const head = `replay mismatch: the ${agent} agent's request (model call ${n} of this run) is not in the recorded session ${opts.file}`;
    const fix = "The project, requirement, agents, prompts or config differ from the recording; record the session again with --record.";
    if (nextIndex < 0) return `${head}: all ${exchanges.length} recorded exchanges were already served. ${fix}`;
    const expected = exchanges[nextIndex];
    const diff = firstDifference(comparable(expected.request), comparable(request)) ?? "no difference in model, messages or tools";
    return `${head}. Expected exchange ${nextIndex + 1} (from the ${expected.agent ?? agentOf(expected.request) ?? "unknown"} agent); first difference: ${diff}. ${fix}`;
  }

  return { fetch, served: () => served };
}

function errorResponse(status: number, message: string, type: string): Response {
  return new Response(JSON.stringify({ error: { message, type, param: null, code: type } }), {
    status,
    headers: { "content-type": "application/json", "x-should-retry": "false" },
  });
}
