import type { YoloEvent } from "../events/schema.js";
import { gateLine, oneLine, scopeWords, stripControl, summarizedLine } from "./format.js";

/** The scrollback of the verbose view: every streamed token (as whole lines), agent starts and ends, tools and gates. */
export interface Transcript {
  /** The lines this event completes, ready to print once. */
  push(e: YoloEvent): string[];
}

// A line the model never ends is cut here, so the held text stays bounded.
const MAX_PARTIAL = 1000;
const TAIL_LINES = 10;

/** Turns events into scrollback lines; tokens are held until their line ends (or their agent stops). */
export function createTranscript(): Transcript {
  let node: string | null = null;
  let partial = "";

  // The held text of the agent that streamed last, as a line, if any.
  const flush = (): string[] => {
    const text = partial.trimEnd();
    partial = "";
    return text ? [`  ${text}`] : [];
  };

  return {
    push(e) {
      switch (e.type) {
        case "token": {
          const out = e.node === node ? [] : flush();
          node = e.node;
          const parts = (partial + stripControl(e.text)).split("\n");
          partial = parts.pop() ?? "";
          for (const line of parts) out.push(`  ${line.trimEnd()}`);
          if (partial.length > MAX_PARTIAL) out.push(...flush());
          return out;
        }
        case "node.started":
          return [...flush(), `▶ ${e.node}${e.fixAttempt > 0 ? ` (fix attempt ${e.fixAttempt})` : ""}`];
        case "node.completed": {
          const summary = oneLine(e.summary);
          return [...flush(), `${e.blocked ? "✗" : "✔"} ${e.node}${summary ? `: ${summary}` : ""}`];
        }
        case "tool.result":
          if (e.ok && e.tool === "handoff") return [];
          return [...flush(), `  ${e.ok ? "✓" : "✗"} ${e.tool} ${oneLine(e.summary)}`.trimEnd()];
        case "gate.started":
          return [...flush(), `  running ${e.baseline ? "the baseline of " : ""}gate ${oneLine(e.name)}: ${oneLine(e.command)}…${e.scope ? ` [${scopeWords(e.scope)}]` : ""}`];
        case "gate.result": {
          // A failing gate's last output lines, as the plain renderer shows them with --verbose.
          const tail = e.gate.passed ? [] : stripControl(e.gate.tail).split("\n").filter((l) => l.trim() !== "").slice(-TAIL_LINES);
          return [...flush(), `  gate ${gateLine(e.gate)}`, ...tail.map((l) => `    │ ${l.trimEnd()}`)];
        }
        case "context.summarized":
          return [...flush(), `  ${summarizedLine(e)}`];
        case "run.completed":
          return flush();
        default:
          return [];
      }
    },
  };
}
