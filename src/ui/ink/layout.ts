import type { StoryView, ViewState } from "../view-state.js";

/** What the frame shows besides the agents, as the App decided it. */
export interface FrameParts {
  showQuestion: boolean;
  showFinal: boolean;
  showStopping: boolean;
  /** The question has an input (two more lines than the "Answer with" hint). */
  inputOpen: boolean;
  columns: number;
}

// Ink clears the whole screen on every frame once the live view is as tall as the terminal: stay below it.
// The final summary besides its reason, which wraps.
const FINAL_LINES = 5;
const FAILURES_SHOWN = 3;

/** Rows the frame takes besides the running agent's text and tool calls. */
export function frameHeight(state: ViewState, parts: FrameParts): number {
  let n = 2 + 1 + state.agents.length + Math.min(state.stories.length, STORY_ROWS);
  if (state.gates.length) {
    n += 1;
    for (const { gate } of state.gates) {
      if (gate.passed) n += 1;
      else n += 1 + Math.min(FAILURES_SHOWN, gate.failures.length) + (gate.failures.length > FAILURES_SHOWN ? 1 : 0);
    }
  }
  if (state.notices.length) n += 1 + state.notices.length;
  const width = Math.max(10, parts.columns);
  if (parts.showStopping) n += 2;
  if (parts.showQuestion && state.question) {
    n += 2 + wrappedLines(state.question.question, width - 2) + (parts.inputOpen ? 2 : 1);
  }
  if (parts.showFinal && state.final) n += FINAL_LINES + wrappedLines(state.final.reason, width);
  return n;
}

/** Story rows the view draws at most: pm may plan dozens of stories, the live view must stay below the terminal. */
export const STORY_ROWS = 8;

/**
 * The stories drawn one per row, in the order they started — those with an agent at work first, then the
 * unfinished and failed ones, then the rest — and the ones folded into a single summary row when there are more
 * than `max`.
 */
export function storyRows(stories: StoryView[], max = STORY_ROWS): { shown: StoryView[]; folded: StoryView[] } {
  if (stories.length <= max) return { shown: stories, folded: [] };
  const rank = (st: StoryView) => (st.agent ? 0 : st.status === "running" ? 1 : st.status === "failed" || st.status === "stopped" ? 2 : 3);
  const picked = new Set([...stories].sort((a, b) => rank(a) - rank(b)).slice(0, Math.max(0, max - 1)));
  return { shown: stories.filter((st) => picked.has(st)), folded: stories.filter((st) => !picked.has(st)) };
}

/** How many tool-call and text lines fit under the running agent in `rows` (no limit when rows is unknown). */
export function nestedLines(rows: number | undefined, height: number, wanted: { tools: number; stream: number }): { tools: number; stream: number } {
  const budget = rows ? Math.max(0, rows - 1 - height) : Infinity;
  const tools = Math.min(wanted.tools, budget);
  return { tools, stream: Math.max(0, Math.min(wanted.stream, budget - tools)) };
}

// Rows a text takes wrapped to `width` columns (about: word wrap may take a row more).
function wrappedLines(text: string, width: number): number {
  if (!text) return 0;
  return text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(Array.from(line).length / Math.max(1, width))), 0);
}
