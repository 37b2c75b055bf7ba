import type { YoloEvent } from "../events/schema.js";
import { plural } from "../text/plural.js";
import { fitList, formatCount, oneLine, truncateMiddle } from "./format.js";

// Text for stories run in parallel (docs/stories.md), shared by the plain renderer, the verbose scrollback and the view.

// A story id longer than this is cut in the middle (ids are short: `s1`, `login-form`).
const STORY_ID_CHARS = 24;

/** A story id as a terminal shows it: pm (the model) chose it, so one clean line, bounded. */
export function storyLabel(id: string): string {
  return truncateMiddle(oneLine(id), STORY_ID_CHARS) || "?";
}

/** `[s1] `: the prefix of a line printed for an event of story `id`'s dev run; empty for other events. */
export function storyTag(story: string | undefined): string {
  return story === undefined ? "" : `[${storyLabel(story)}] `;
}

type StoryEvent = Extract<YoloEvent, { type: "story.started" | "story.completed" | "story.merged" }>;

/** One line for a `story.*` event, fitted to `width`: it names the story itself, so it takes no prefix. */
export function storyEventLine(e: StoryEvent, width: number): string {
  const id = storyLabel(e.story);
  switch (e.type) {
    case "story.started": {
      const after = e.dependsOn.length ? ` · after ${e.dependsOn.map(storyLabel).join(", ")}` : "";
      return `◇ story ${id} started: ${truncateMiddle(oneLine(e.title), 60)} · ${oneLine(e.branch)}${after}`;
    }
    case "story.completed": {
      const head = `${e.status === "done" ? "✔" : "✗"} story ${id} ${e.status}`;
      const summary = oneLine(e.summary);
      return `${head}${summary ? `: ${truncateMiddle(summary, 70)}` : ""} · ${plural(e.filesChanged.length, "file")} · ${formatCount(e.usage.totalTokens)} tokens`;
    }
    case "story.merged":
      return e.conflicts.length ? fitList(`⇄ story ${id} merged, conflicts resolved in `, e.conflicts.map(oneLine), width) : `⇄ story ${id} merged`;
  }
}
