/**
 * What "the same model request" means for record and replay. Pure functions, shared by the recording
 * fetch (which stores requests in this normalised form) and the replaying fetch (which compares with it).
 */

/** Values that differ between two honest runs of the same session and are replaced before storing or comparing. */
export interface NormalizeContext {
  /** The project root (absolute, resolved): recorded as `<root>`, so a session replays in any copy of the project. */
  root: string;
  /** The thread id of this run: recorded as `<thread>`. */
  threadId: string;
}

/** The request fields a replay compares; everything else (stream options, temperature…) is informative only. */
export const COMPARED_FIELDS = ["model", "messages", "tools"] as const;

const ROOT_MARK = "<root>";
const THREAD_MARK = "<thread>";

/**
 * A request body with the machine- and run-specific strings replaced: the project root becomes `<root>`,
 * the thread id `<thread>`. This is the form a session file stores.
 */
export function normalizeRequest(body: unknown, ctx: NormalizeContext): unknown {
  const thread = ctx.threadId ? new RegExp(`\\b${escapeRegExp(ctx.threadId)}\\b`, "g") : null;
  return mapStrings(body, (s) => {
    let out = ctx.root && ctx.root !== "/" ? s.split(ctx.root).join(ROOT_MARK) : s;
    if (thread) out = out.replace(thread, THREAD_MARK);
    return out;
  });
}

/** How much of the end of a cut output is compared (see maskVolatile). */
export const TAIL_LINES_COMPARED = 15;

/**
 * Text that differs between two honest runs, masked for the comparison only:
 * - durations and clock times in tool and test output (`duration_ms 41.2`, `(0.8ms)`, `Time: 1.2 s`, `12:03:44`);
 * - where a cut output starts: a gate's output tail (the last 2 KB) and the part after a `[… N bytes omitted …]`
 *   marker begin wherever the byte window falls, which moves when a duration is a digit longer. Of those, only the
 *   last 15 lines are compared (and not the omitted byte count).
 * A difference only in such text is therefore not a mismatch: the price of replaying output that contains timings.
 */
export function maskVolatile(text: string): string {
  return text
    .replace(
      /(<data source="[^"\n]*\(tail\)">\n(`{3,})\n)([\s\S]*?)(\n\2\n<\/data>)/g,
      (_m, open: string, _ticks, body: string, close: string) => open + lastLines(body) + close,
    )
    .replace(/\[… \d+ bytes omitted …\]\n([\s\S]*)$/, (_m, rest: string) => `[… <n> bytes omitted …]\n${lastLines(rest)}`)
    .replace(/\bduration_ms[ :=]+\d+(?:\.\d+)?/g, "duration_ms <duration>")
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|milliseconds)\b/g, "<duration>")
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, "<time>");
}

function lastLines(text: string): string {
  const lines = text.split("\n");
  return lines.length > TAIL_LINES_COMPARED ? ["<cut>", ...lines.slice(-TAIL_LINES_COMPARED)].join("\n") : text;
}

/** The part of a (normalised) request a replay compares, with volatile text masked. */
export function comparable(request: unknown): Record<string, unknown> {
  const body = (request ?? {}) as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of COMPARED_FIELDS) picked[field] = mapStrings(body[field] ?? null, maskVolatile);
  // The Responses API carries the conversation in `input` (compared only where present, so chat sessions are unchanged).
  if (body.input !== undefined) picked.input = mapStrings(body.input, maskVolatile);
  return picked;
}

/** A stable string for equality: JSON with object keys sorted. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * The first place two comparable requests differ, in words: a path (`messages[4].content`) and, for text,
 * the character offset with a short excerpt of both sides. null when they are equal.
 */
export function firstDifference(recorded: unknown, actual: unknown, path = ""): string | null {
  if (canonicalJson(recorded) === canonicalJson(actual)) return null;
  const where = path || "the request";
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    const n = Math.min(recorded.length, actual.length);
    for (let i = 0; i < n; i++) {
      // Messages are named with their role: `messages[5] (user).content`.
      const role = isObject(actual[i]) && typeof actual[i].role === "string" ? ` (${actual[i].role})` : "";
      const diff = firstDifference(recorded[i], actual[i], `${path}[${i}]${role}`);
      if (diff) return diff;
    }
    const extra = recorded.length > actual.length ? `recorded has ${describe(recorded[n])} at [${n}]` : `now has ${describe(actual[n])} at [${n}]`;
    return `${where} has ${recorded.length} entries in the recording and ${actual.length} now (${extra})`;
  }
  if (isObject(recorded) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const sub = path ? `${path}.${key}` : key;
      if (!(key in recorded)) return `${sub} is new (not in the recording): ${excerpt(JSON.stringify(actual[key]))}`;
      if (!(key in actual)) return `${sub} is missing (the recording has ${excerpt(JSON.stringify(recorded[key]))})`;
      const diff = firstDifference(recorded[key], actual[key], sub);
      if (diff) return diff;
    }
    return null;
  }
  if (typeof recorded === "string" && typeof actual === "string") {
    let i = 0;
    while (i < recorded.length && i < actual.length && recorded[i] === actual[i]) i++;
    return `${where} differs at character ${i}: recorded ${around(recorded, i)}, now ${around(actual, i)}`;
  }
  return `${where} differs: recorded ${excerpt(JSON.stringify(recorded))}, now ${excerpt(JSON.stringify(actual))}`;
}

/** Which yolo agent sent a request, from "You are the <role> agent" in its first system message. */
export function agentOf(request: unknown): string | null {
  const r = request as { messages?: unknown; input?: unknown } | null;
  const messages = r?.messages ?? r?.input;
  if (!Array.isArray(messages)) return null;
  const system = messages.find((m) => isObject(m) && (m.role === "system" || m.role === "developer")) as Record<string, unknown> | undefined;
  if (!system) return null;
  const match = /You are the ([\w-]+) agent/.exec(textOf(system.content));
  return match ? match[1] : null;
}

function describe(value: unknown): string {
  if (isObject(value) && typeof value.role === "string") return `a ${value.role} message`;
  return excerpt(JSON.stringify(value));
}

// A window of text around an offset, quoted, with ellipses where it was cut.
function around(text: string, at: number): string {
  const start = Math.max(0, at - 30);
  const end = Math.min(text.length, at + 50);
  const body = text.slice(start, end);
  return `${start > 0 ? "…" : ""}${JSON.stringify(body)}${end < text.length ? "…" : ""}`;
}

function excerpt(text: string | undefined, max = 120): string {
  const t = text ?? "undefined";
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
