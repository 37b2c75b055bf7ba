import type { YoloEvent } from "../events/schema.js";
import { gateLine, oneLine, scopeWords, stripControl, summarizedLine } from "./format.js";
import { storyEventLine, storyTag } from "./story-format.js";

/** The scrollback of the verbose view: every streamed token (as whole lines), agent starts and ends, tools and gates. */
export interface Transcript {
  /** The lines this event completes, ready to print once. */
  push(e: YoloEvent): string[];
}

// A line the model never ends is cut here, so the held text stays bounded.
const MAX_PARTIAL = 1000;
const TAIL_LINES = 10;
// A story line is fitted to about a wide terminal's width (the scrollback wraps the rest).
const STORY_LINE = 120;

/** Turns events into scrollback lines; tokens are held until their line ends (or their agent stops). */
export function createTranscript(): Transcript {
  let node: string | null = null;
  let partial = "";
  // Each story's dev run streams at the same time as the others: its held text is kept apart, by story.
  const storyPartials = new Map<string, string>();

  // An event of one story's dev run: its lines carry the story's tag; its tokens never break another's line.
  const storyPush = (e: YoloEvent, story: string): string[] => {
    const tag = storyTag(story);
    const tagged = (lines: string[]) => lines.map((l) => l.replace(/^( *)/, `$1${tag}`));
    const held = (): string[] => {
      const text = (storyPartials.get(story) ?? "").trimEnd();
      storyPartials.delete(story);
      return text ? [`  ${text}`] : [];
    };
    if (e.type === "token") {
      const parts = ((storyPartials.get(story) ?? "") + stripControl(e.text)).split("\n");
      const rest = parts.pop() ?? "";
      const out = parts.map((line) => `  ${line.trimEnd()}`);
      storyPartials.set(story, rest);
      if (rest.length > MAX_PARTIAL) out.push(...held());
      return tagged(out);
    }
    if (e.type === "node.started" || e.type === "node.completed") {
      const out = held();
      return tagged([...out, ...eventLines(e)]);
    }
    return tagged(eventLines(e));
  };

  // The held text of the agent that streamed last, as a line, if any.
  const flush = (): string[] => {
    const text = partial.trimEnd();
    partial = "";
    return text ? [`  ${text}`] : [];
  };

  const push = (e: YoloEvent): string[] => {
    if (e.type === "token") {
      const out = e.node === node ? [] : flush();
      node = e.node;
      const parts = (partial + stripControl(e.text)).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) out.push(`  ${line.trimEnd()}`);
      if (partial.length > MAX_PARTIAL) out.push(...flush());
      return out;
    }
    if (e.type === "run.completed") {
      // What stories' runs streamed without ending the line is printed when the run ends, like the rest.
      const held = [...storyPartials].filter(([, text]) => text.trim()).map(([story, text]) => `  ${storyTag(story)}${text.trimEnd()}`);
      storyPartials.clear();
      return [...flush(), ...held];
    }
    // An event that prints a line ends the held text's line first.
    const lines = eventLines(e);
    return lines.length ? [...flush(), ...lines] : [];
  };

  return {
    push(e) {
      if (e.story !== undefined && !e.type.startsWith("story.")) return storyPush(e, e.story);
      return push(e);
    },
  };
}

// The lines of an event other than a token or the run's end, without any held text.
function eventLines(e: YoloEvent): string[] {
  switch (e.type) {
    case "node.started":
      return [`▶ ${e.node}${e.fixAttempt > 0 ? ` (fix attempt ${e.fixAttempt})` : ""}`];
    case "node.completed": {
      const summary = oneLine(e.summary);
      return [`${e.blocked ? "✗" : "✔"} ${e.node}${summary ? `: ${summary}` : ""}`];
    }
    case "tool.result":
      if (e.ok && e.tool === "handoff") return [];
      return [`  ${e.ok ? "✓" : "✗"} ${e.tool} ${oneLine(e.summary)}`.trimEnd()];
    case "gate.started":
      return [`  running ${e.baseline ? "the baseline of " : ""}gate ${oneLine(e.name)}: ${oneLine(e.command)}…${e.scope ? ` [${scopeWords(e.scope)}]` : ""}`];
    case "gate.result": {
      // A failing gate's last output lines, as the plain renderer shows them with --verbose.
      const tail = e.gate.passed
        ? []
        : stripControl(e.gate.tail)
            .split("\n")
            .filter((l) => l.trim() !== "")
            .slice(-TAIL_LINES);
      return [`  gate ${gateLine(e.gate)}`, ...tail.map((l) => `    │ ${l.trimEnd()}`)];
    }
    case "context.summarized":
      return [`  ${summarizedLine(e)}`];
    case "story.started":
    case "story.completed":
    case "story.merged":
      return [storyEventLine(e, STORY_LINE)];
    default:
      return [];
  }
}
