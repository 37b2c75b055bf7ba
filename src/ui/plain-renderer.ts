import type { YoloEvent } from "../events/schema.js";
import type { Renderer } from "./renderer.js";
import { storyEventLine, storyTag } from "./story-format.js";
import { plural } from "../text/plural.js";
import {
  argsBrief,
  clockTime,
  fitList,
  formatCount,
  formatDuration,
  gateLine,
  hookNotice,
  type RunMode,
  oneLine,
  scopeWords,
  statusWords,
  stripControl,
  summarizedLine,
  tokensLine,
  truncateEnd,
  truncateMiddle,
  wrapText,
} from "./format.js";

export interface PlainRendererOptions {
  /** Also print per-agent token usage, the pipeline and log file, and the tail of failing gates. */
  verbose?: boolean;
  /** Clock used when an event's timestamp does not parse. */
  now?: () => Date;
  /**
   * The CLI asks a waiting question on this terminal: the "Answer with" hint is left out, and a waiting run's
   * summary is held back — dropped when the thread resumes, printed at close() when the user gave no answer.
   */
  answersInline?: boolean;
}

const HANDOFF = "handoff";

// Lines stay readable in CI logs; the resume command is the one thing never cut.
const MAX_LINE = 160;
const TIME_WIDTH = "HH:MM:SS ".length;
const INDENT = " ".repeat(TIME_WIDTH);
const BODY = MAX_LINE - TIME_WIDTH;

// One output line body; `keep` marks text that must be printed whole (commands to copy).
type Line = { text: string; keep?: boolean };

// What the renderer remembers between events: the run's start and mode, and each open tool call's arguments.
interface PlainState {
  verbose: boolean;
  answersInline: boolean;
  callArgs: Map<string, string>;
  startedAt: number | null;
  mode: RunMode;
}

/**
 * Plain progress lines for a pipe or a CI log: one line per meaningful event, each prefixed with the
 * event's local time, never any ANSI escape, never tokens.
 */
export function createPlainRenderer(write: (s: string) => void, opts: PlainRendererOptions = {}): Renderer {
  const now = opts.now ?? (() => new Date());
  const st: PlainState = { verbose: opts.verbose ?? false, answersInline: opts.answersInline ?? false, callArgs: new Map(), startedAt: null, mode: "run" };
  let held: string | null = null;

  return {
    onEvent(e) {
      held = null;
      const lines = linesFor(st, e);
      if (!lines.length) return;
      // Several stories' lines interleave in a CI log: each line of a story's dev run says which story.
      const tag = e.type.startsWith("story.") ? "" : storyTag(e.story);
      if (tag) lines[0] = { ...lines[0], text: tag + lines[0].text };
      const text = format(lines, clockTime(e.ts, now));
      if (opts.answersInline && e.type === "run.completed" && e.status === "waiting") held = text;
      else write(text);
    },
    onStopRequest(mode) {
      const text = mode === "after-step" ? "■ stopping after the current step (Ctrl+C again to stop now)" : "■ stopping now";
      write(format([{ text }], clockTime("", now)));
    },
    close: async () => {
      if (held !== null) write(held);
      held = null;
    },
  };
}

type EventOf<T extends YoloEvent["type"]> = Extract<YoloEvent, { type: T }>;

// The lines (without time prefix) an event prints; the first gets the time, the rest are indented.
function linesFor(st: PlainState, e: YoloEvent): Line[] {
  switch (e.type) {
    case "run.started":
      return runStartedLines(st, e);
    case "node.started":
      return [{ text: `▶ ${e.node}${e.fixAttempt > 0 ? ` (fix attempt ${e.fixAttempt})` : ""}` }];
    case "node.completed": {
      const summary = oneLine(e.summary);
      const mark = e.blocked ? "✗" : "✔";
      return [{ text: summary ? `${mark} ${e.node}: ${fit(summary, BODY - e.node.length - 4)}` : `${mark} ${e.node}` }];
    }
    case "token":
    case "thought":
      return [];
    case "tool.called": {
      st.callArgs.set(callKey(e), e.args);
      // The handoff shows as the agent's completion; only a refused one is worth a line.
      if (e.tool === HANDOFF) return [];
      return [{ text: `  ${e.tool} ${argsBrief(e.args)}`.trimEnd() }];
    }
    case "tool.result":
      return toolResultLines(st, e);
    case "gate.started":
      return [
        {
          text: `  running ${e.baseline ? "the baseline of " : ""}gate ${oneLine(e.name)}: ${oneLine(e.command)}…${e.scope ? ` [${scopeWords(e.scope)}]` : ""}`,
        },
      ];
    case "gate.result":
      return gateResultLines(st, e);
    case "route": {
      const reason = oneLine(e.reason);
      return [{ text: `→ ${e.from} → ${e.to}${reason ? ` (${fit(reason, 100)})` : ""}` }];
    }
    case "interrupt": {
      const question = wrapText(e.question, BODY - 4).map((l) => ({ text: `    ${l}` }));
      return [{ text: `? ${e.askedBy} asks:` }, ...question, ...(st.answersInline ? [] : [{ text: `  Answer with: ${e.resumeCommand}`, keep: true }])];
    }
    case "usage":
      return st.verbose ? usageLines(e) : [];
    case "context.summarized":
      return [{ text: `~ ${summarizedLine(e)}` }];
    case "reply":
      return replyLines(e);
    case "hook.result": {
      const notice = hookNotice(e);
      return notice ? wrapped("  ⊘ ", notice, "    ") : [];
    }
    case "story.started":
    case "story.completed":
    case "story.merged":
      return [{ text: storyEventLine(e, BODY) }];
    case "warning":
      // A warning ends in what to do about it (a setting, a command): wrapped whole, never cut.
      return wrapped("! warning: ", oneLine(e.message), "  ");
    case "error":
      return [{ text: `✗ error ${e.code}: ${oneLine(e.message)}`, keep: true }];
    case "run.completed":
      return runCompletedLines(st, e);
  }
}

// The header: thread, request and model; verbose adds the pipeline, the log file and the sandbox.
function runStartedLines(st: PlainState, e: EventOf<"run.started">): Line[] {
  st.startedAt = Date.parse(e.ts);
  st.mode = e.mode ?? "run";
  // A follow-up shows the message it answers, not the thread's first one.
  const req = truncateEnd(oneLine(e.message ?? e.requirement), 60);
  const out: Line[] = [{ text: `yolo thread ${e.thread} · ${req} · model ${oneLine(e.model)}${e.resumed ? " · resumed" : ""}` }];
  if (st.verbose) {
    out.push({ text: `pipeline ${e.nodes.join(" → ")}` }, { text: `log ${e.logFile}`, keep: true });
    if (e.sandbox)
      out.push({
        text: `sandbox ${e.sandbox.kind}${e.sandbox.reason ? `: ${oneLine(e.sandbox.reason)}` : ""}${e.sandbox.fix ? ` (fix: ${oneLine(e.sandbox.fix)})` : ""}`,
      });
  }
  return out;
}

// A tool's outcome: a success in one line, a failure with a hint of the arguments it was called with.
function toolResultLines(st: PlainState, e: EventOf<"tool.result">): Line[] {
  const args = st.callArgs.get(callKey(e));
  st.callArgs.delete(callKey(e));
  const summary = oneLine(e.summary);
  if (e.ok && e.tool === HANDOFF) return [];
  if (e.ok) return [{ text: `  ✓ ${e.tool} ${fit(summary, BODY - e.tool.length - 5)}`.trimEnd() }];
  const hint = args === undefined ? "" : argsBrief(args, 50);
  const head = `  ✗ ${e.tool}${hint ? ` ${hint}` : ""}`;
  return [{ text: summary ? `${head}: ${fit(summary, BODY - Array.from(head).length - 2)}` : head }];
}

// A gate's verdict; verbose adds the tail of a failing gate's output and where the whole of it is.
function gateResultLines(st: PlainState, e: EventOf<"gate.result">): Line[] {
  const out: Line[] = [{ text: `gate ${gateLine(e.gate)}` }];
  if (st.verbose && !e.gate.passed) {
    const tail = stripControl(e.gate.tail)
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(-10);
    for (const l of tail) out.push({ text: `  │ ${fit(l.trimEnd(), BODY - 4)}` });
    if (e.gate.logFile) out.push({ text: `  full output: ${e.gate.logFile}`, keep: true });
  }
  return out;
}

// One agent's token usage (verbose only).
function usageLines(e: EventOf<"usage">): Line[] {
  const u = e.usage;
  return [
    {
      text: `  tokens ${e.node}: ${u.estimated ? "~" : ""}${formatCount(u.totalTokens)} (in ${formatCount(u.promptTokens)} / out ${formatCount(u.completionTokens)}, ${plural(u.calls, "call")})`,
    },
  ];
}

// The answer of an agent or chat thread is what the user asked for: printed whole, line by line.
function replyLines(e: EventOf<"reply">): Line[] {
  const lines = stripControl(e.text)
    .trimEnd()
    .split("\n")
    .flatMap((l) => (l.trim() === "" ? [""] : wrapText(l, BODY - 2)));
  return [{ text: `◆ ${e.node} answers:` }, ...lines.map((l) => ({ text: `  ${l}`, keep: true }))];
}

// The closing lines: outcome and duration, files changed, tokens, and the resume command when there is one.
function runCompletedLines(st: PlainState, e: EventOf<"run.completed">): Line[] {
  const { startedAt, mode } = st;
  const mark = e.status === "passed" ? "✔" : e.status === "waiting" ? "?" : e.status === "interrupted" ? "■" : "✗";
  const ended = Date.parse(e.ts);
  const took = startedAt !== null && !Number.isNaN(startedAt) && !Number.isNaN(ended) ? ` in ${formatDuration(ended - startedAt)}` : "";
  const reason = oneLine(e.reason);
  const head = `${mark} ${mode} ${statusWords(e.status, e.limit, mode, e.reason)} (exit ${e.exitCode})${took}`;
  // The reason says what to do next (which limit, which server): wrapped whole, never cut.
  const [first = head, ...more] = reason ? wrapText(`${head}: ${reason}`, BODY - 2) : [head];
  const out: Line[] = [
    { text: first },
    ...more.map((l) => ({ text: `  ${l}` })),
    { text: filesLine(e.filesChanged) },
    {
      text: tokensLine(e.usage),
    },
  ];
  if (e.resumeCommand !== null) out.push({ text: `resume: ${e.resumeCommand}`, keep: true });
  return out;
}

// One event's lines as printed: the first with the time, the rest indented under it.
function format(lines: Line[], time: string): string {
  const text = lines
    .map((l, i) => {
      const body = l.keep ? stripControl(l.text).replace(/\n/g, " ") : fit(l.text, BODY);
      return `${i === 0 ? `${time} ` : INDENT}${body}`;
    })
    .join("\n");
  return `${text}\n`;
}

// `head` then `text`, wrapped to the line body; the lines after the first start with `indent`.
function wrapped(head: string, text: string, indent: string): Line[] {
  const [first = "", ...more] = wrapText(text, BODY - Math.max(Array.from(head).length, indent.length));
  return [{ text: `${head}${first}` }, ...more.map((l) => ({ text: `${indent}${l}` }))];
}

// Cleans a line body and keeps it within `max` characters by cutting its middle.
function fit(s: string, max: number): string {
  return truncateMiddle(stripControl(s).replace(/\n/g, " "), Math.max(10, max));
}

// A tool call's key: call ids come from the model, and two stories' runs may use the same one.
function callKey(e: { callId: string; story?: string }): string {
  return e.story === undefined ? e.callId : `${e.story}\0${e.callId}`;
}

// "files changed (2): a, b" — as many names as fit, then a count of the rest.
function filesLine(files: string[]): string {
  if (!files.length) return "no files changed";
  return fitList(`files changed (${files.length}): `, files.map(oneLine), BODY);
}

// "1 call", "2 calls".
