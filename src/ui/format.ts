import { limitLabel, type LimitKind, type RunStatus } from "../events/outcome.js";
import { judgedVerdict, judgementNotes } from "../events/judgement-words.js";
import type { GateResult, GateScope, YoloEvent } from "../events/schema.js";
import { plural } from "../text/plural.js";

// Text helpers shared by the plain and Ink renderers: all engine-supplied text reaching a terminal goes through them.

// CSI, OSC and two-character escape sequences: tool summaries and test output may carry colours.
const ANSI_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
// C0 controls except tab and newline, DEL, C1 controls (including a stray ESC), and the bidi overrides and isolates
// that make a line read in another order than it runs.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Removes escape sequences (colours, cursor moves) only. */
export function stripEscapes(s: string): string {
  return s.replace(ANSI_SEQUENCE, "");
}

/** Removes escape sequences and control characters; keeps newlines, turns tabs into two spaces. */
export function stripControl(s: string): string {
  return s.replace(ANSI_SEQUENCE, "").replace(/\r\n?/g, "\n").replace(/\t/g, "  ").replace(CONTROL, "");
}

/** Any text as a single clean line (whitespace runs collapsed). */
export function oneLine(s: string): string {
  return stripControl(s).replace(/\s+/g, " ").trim();
}

/** Cuts to at most `max` code points, ending with "…" when cut. */
export function truncateEnd(s: string, max: number): string {
  const cps = Array.from(s);
  if (cps.length <= max) return s;
  return `${cps.slice(0, Math.max(0, max - 1)).join("")}…`;
}

/** Cuts to at most `max` code points by dropping the middle, so both the start and the end survive. */
export function truncateMiddle(s: string, max: number): string {
  const cps = Array.from(s);
  if (cps.length <= max) return s;
  if (max <= 1) return "…".slice(0, max);
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${cps.slice(0, head).join("")}…${tail > 0 ? cps.slice(-tail).join("") : ""}`;
}

/** Greedy word wrap; words longer than `width` are split. */
export function wrapText(s: string, width: number): string[] {
  const out: string[] = [];
  for (const raw of stripControl(s).split("\n")) {
    let line = "";
    for (const word of raw.split(/\s+/).filter(Boolean)) {
      let w = word;
      while (Array.from(w).length > width) {
        if (line) out.push(line);
        line = "";
        out.push(Array.from(w).slice(0, width).join(""));
        w = Array.from(w).slice(width).join("");
      }
      if (!line) line = w;
      else if (Array.from(line).length + 1 + Array.from(w).length <= width) line += ` ${w}`;
      else {
        out.push(line);
        line = w;
      }
    }
    out.push(line);
  }
  while (out.length > 1 && out[out.length - 1] === "") out.pop();
  return out;
}

/**
 * Word-wraps long lines only, keeping each line's indentation (on its continuation lines too) and the short
 * lines as they are: for an answer printed whole, whose code blocks and lists must keep their shape.
 */
export function wrapKeepingIndent(s: string, width: number): string[] {
  return stripControl(s)
    .split("\n")
    .flatMap((line) => {
      const trimmed = line.trimEnd();
      if (Array.from(trimmed).length <= width) return [trimmed];
      const indent = /^ */.exec(trimmed)![0];
      if (indent.length > width / 2) return wrapText(trimmed, width);
      return wrapText(trimmed.slice(indent.length), width - indent.length).map((l) => indent + l);
    });
}

/** 12345 → "12,345". */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** 12345 → "12.3k": for the narrow Ink header. */
export function formatCountShort(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** 62000 → "1m 02s"; 4000 → "4s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** An ISO timestamp as local "HH:MM:SS"; `fallback` supplies the time when `ts` does not parse. */
export function clockTime(ts: string, fallback: () => Date = () => new Date()): string {
  const parsed = new Date(ts);
  const d = Number.isNaN(parsed.getTime()) ? fallback() : parsed;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

// Argument names that best identify a tool call, most telling first.
const BRIEF_KEYS = ["path", "file", "command", "cmd", "pattern", "query", "url", "name"];

/** A tool call's JSON arguments as a short hint ("package.json", "npm test"); raw text when not JSON. */
export function argsBrief(args: string, max = 60): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return truncateMiddle(oneLine(args), max);
  }
  if (typeof parsed === "string") return truncateMiddle(oneLine(parsed), max);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return truncateMiddle(oneLine(args), max);
  const obj = parsed as Record<string, unknown>;
  for (const key of BRIEF_KEYS) {
    const value = obj[key];
    if (typeof value !== "string") continue;
    const extra = Array.isArray(obj.args) ? obj.args.filter((a): a is string => typeof a === "string") : [];
    return truncateMiddle(oneLine([value, ...extra].join(" ")), max);
  }
  const firstString = Object.values(obj).find((v): v is string => typeof v === "string");
  return truncateMiddle(oneLine(firstString ?? ""), max);
}

/** The gate's verdict word: PASS, or FAIL (marked when the gate is not required). */
export function gateVerdict(g: GateResult): string {
  return judgedVerdict(g);
}

/** "test: FAIL exit 1 (3 passed, 1 failed) — first failures: a, b" — one gate result on one line. */
export function gateLine(g: GateResult): string {
  let line = gateHeadline(g);
  const notes = judgementNotes(g, 3);
  if (notes.length) return `${line} — ${notes.map(oneLine).join(" — ")}`;
  if (!g.passed && g.failures.length) {
    const first = g.failures.slice(0, 3).map((f) => truncateEnd(oneLine(f), 40));
    line += ` — first failures: ${first.join(", ")}${g.failures.length > 3 ? ", …" : ""}`;
  }
  return line;
}

/** "test: FAIL exit 1 (3 passed, 1 failed) · attempt 2" — a gate result without its failing test names. */
export function gateHeadline(g: GateResult): string {
  const parts = [`${oneLine(g.name)}: ${gateVerdict(g)}`];
  if (g.timedOut) parts.push(`timed out after ${formatDuration(g.durationMs)}`);
  else parts.push(g.exitCode === null ? "no exit code" : `exit ${g.exitCode}`);
  const counts = [g.passedCount !== null ? `${g.passedCount} passed` : null, g.failedCount !== null ? `${g.failedCount} failed` : null].filter(Boolean);
  let line = parts.join(" ");
  if (counts.length) line += ` (${counts.join(", ")})`;
  if (g.attempt > 1) line += ` · attempt ${g.attempt}`;
  if (g.scope?.kind === "changed") line += ` · ${scopeWords(g.scope)}`;
  else if (g.scope) line += " · whole suite";
  return line;
}

/** "changed: @x/api, @x/web" or "whole suite: <why>" — what a monorepo gate run covers, for one line. */
export function scopeWords(scope: GateScope): string {
  if (scope.kind === "changed") return `changed: ${scope.units.map(oneLine).join(", ")}`;
  return `whole suite${scope.reason ? `: ${oneLine(scope.reason)}` : ""}`;
}

/** The thread's mode, from `run.started` (a workflow when not said). */
export type RunMode = "run" | "agent" | "chat";

const EXIT_MEANINGS: Record<RunStatus, string> = {
  passed: "the gate passed",
  failed: "the gate still fails after the fix attempts",
  waiting: "an agent needs a human answer",
  limit: "a limit was reached; resumable",
  provider_error: "the model provider failed; resumable once fixed",
  interrupted: "resumable; the last completed step is saved",
  config_error: "usage or configuration error; nothing ran",
  error: "unexpected internal error; see the log",
};

/**
 * What a run's exit code means, in words (README: "Exit codes"), to follow `statusWords`; empty when those
 * already say it all (an agent or chat thread answered).
 */
export function exitMeaning(status: RunStatus, limit?: LimitKind | null, mode: RunMode = "run", reason?: string): string {
  if (status === "passed" && mode !== "run") return "";
  if (status === "passed" && withoutGate(reason)) return "no gate checked the change";
  // Exit 0 with tests still red (baseline "report"): never "the gate passed".
  if (status === "passed" && withPreExisting(reason)) return "no new failures; tests red before the run still fail";
  if (status === "limit" && limit) return "resumable";
  return EXIT_MEANINGS[status];
}

/** Whether a run's reason says it ended with no gate at all: such a run never reads "passed" or "the gate passed". */
export function withoutGate(reason: string | undefined): boolean {
  return reason?.startsWith("completed without a gate") === true;
}

/** Whether a passed run's reason names failures the baseline already had (complete.ts: `… (2 pre-existing failures: …)`). */
export function withPreExisting(reason: string | undefined): boolean {
  return preExistingCount(reason) > 0;
}

/** How many pre-existing failures a passed run's reason names (`baseline: "report"`); 0 when none. */
export function preExistingCount(reason: string | undefined): number {
  if (!reason?.startsWith("completed: ")) return 0;
  const m = / \((\d+) pre-existing failures?: /.exec(reason);
  return m ? Number(m[1]) : 0;
}

/** A run's status as the table of `yolo threads` shows it: the status with the limit that stopped it, `limit (time limit)`. */
export function statusText(status: string, limit?: LimitKind | null): string {
  return status === "limit" && limit ? `limit (${limitLabel(limit)})` : status;
}

const STATUS_WORDS: Record<RunStatus, string> = {
  passed: "passed",
  failed: "failed",
  waiting: "waiting",
  limit: "stopped at a limit",
  provider_error: "provider error",
  interrupted: "interrupted",
  config_error: "configuration error",
  error: "internal error",
};

const LIMIT_WORDS: Record<LimitKind, string> = {
  steps: "stopped at the step limit",
  turns: "stopped at the turn limit",
  budget: "stopped at the budget",
  time: "stopped at the time limit",
  loop: "stopped: loop detected",
};

/** How a run ended, in words for a summary line: `provider error`, `stopped at the step limit`, `answered`. */
export function statusWords(status: RunStatus, limit?: LimitKind | null, mode: RunMode = "run", reason?: string): string {
  if (status === "passed" && mode !== "run") return "answered";
  if (status === "passed" && withoutGate(reason)) return "completed without a gate";
  // `baseline: "report"`: exit 0 with tests red before the run still red is never a bare "passed".
  const pre = status === "passed" ? preExistingCount(reason) : 0;
  if (pre) return `passed with ${pre} pre-existing failure${pre === 1 ? "" : "s"}`;
  if (status === "limit" && limit) return LIMIT_WORDS[limit];
  return STATUS_WORDS[status];
}

/** "head a, b, … (+3 more)": as many items as fit in `width` code points, then a count of the rest. */
export function fitList(head: string, items: string[], width: number): string {
  const shown: string[] = [];
  for (const item of items) {
    const rest = items.length - shown.length - 1;
    const candidate = [...shown, item].join(", ") + (rest > 0 ? `, … (+${rest} more)` : "");
    if (Array.from(head).length + Array.from(candidate).length > width) break;
    shown.push(item);
  }
  const more = items.length - shown.length;
  return head + [...shown, ...(more > 0 ? [`… (+${more} more)`] : [])].join(", ");
}

/** `$0.042` / `0.042 EUR`; empty without a cost. */
export function formatCost(cost: { amount: number; currency: string } | null): string {
  if (!cost) return "";
  const digits = cost.amount >= 1 ? 2 : 3;
  return cost.currency === "USD" ? `$${cost.amount.toFixed(digits)}` : `${cost.amount.toFixed(digits)} ${cost.currency}`;
}

/** `dev: older turns summarized, ~12,345 → 3,100 tokens (threshold 9,000)`: a `context.summarized` event in one line. */
export function summarizedLine(e: { node: string; tokensBefore: number; tokensAfter: number; threshold: number }): string {
  return `${e.node}: older turns summarized, ~${formatCount(e.tokensBefore)} → ${formatCount(e.tokensAfter)} tokens (threshold ${formatCount(e.threshold)})`;
}

/** A run's token line: `tokens 12,100 (in 10,500, 4,000 cached / out 1,600) in 9 model calls`. */
export function tokensLine(u: {
  totalTokens: number;
  promptTokens: number;
  completionTokens: number;
  calls: number;
  cachedTokens?: number;
  estimated?: boolean;
}): string {
  const cached = u.cachedTokens ? `, ${formatCount(u.cachedTokens)} cached` : "";
  // `~`: the server reported no usage for some calls; the counts include yolo's estimate.
  return `tokens ${u.estimated ? "~" : ""}${formatCount(u.totalTokens)} (in ${formatCount(u.promptTokens)}${cached} / out ${formatCount(u.completionTokens)}) in ${plural(u.calls, "model call")}`;
}

/**
 * The line a hook run is worth, or null: refusals, blocks, stops and failures are shown; a hook that let the
 * step go on is only in `--json` events.
 */
export function hookNotice(e: Extract<YoloEvent, { type: "hook.result" }>): string | null {
  const on = e.tool ?? e.node;
  const why = e.reason ? `: ${oneLine(e.reason)}` : "";
  switch (e.decision) {
    case "deny":
      return `hook refused ${on ?? "the call"} (${e.event} \`${e.hook}\`)${why}`;
    case "block":
      return `hook blocked ${on ?? "the step"} (${e.event} \`${e.hook}\`)${why}`;
    case "stop":
      return `hook stopped the run (${e.event} \`${e.hook}\`)${why}`;
    case "error":
    case "timeout":
      return `${e.event} hook \`${e.hook}\` failed${e.decision === "timeout" ? " (timeout)" : ""}${e.blocked ? `, so ${e.tool ? `${e.tool} was refused` : "the run stops"}` : ""}${why}`;
    default:
      return null;
  }
}
