import type { ViewState } from "../view-state.js";

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
const FINAL_LINES = 6;
const FAILURES_SHOWN = 3;

/** Rows the frame takes besides the running agent's text and tool calls. */
export function frameHeight(state: ViewState, parts: FrameParts): number {
  let n = 2 + 1 + state.agents.length;
  if (state.gates.length) {
    n += 1;
    for (const { gate } of state.gates) {
      if (gate.passed) n += 1;
      else n += 1 + Math.min(FAILURES_SHOWN, gate.failures.length) + (gate.failures.length > FAILURES_SHOWN ? 1 : 0);
    }
  }
  if (state.notices.length) n += 1 + state.notices.length;
  if (parts.showStopping) n += 2;
  if (parts.showQuestion && state.question) {
    const width = Math.max(10, parts.columns - 2);
    const wrapped = state.question.question.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(Array.from(line).length / width)), 0);
    n += 2 + wrapped + (parts.inputOpen ? 2 : 1);
  }
  if (parts.showFinal) n += FINAL_LINES;
  return n;
}

/** How many tool-call and text lines fit under the running agent in `rows` (no limit when rows is unknown). */
export function nestedLines(rows: number | undefined, height: number, wanted: { tools: number; stream: number }): { tools: number; stream: number } {
  const budget = rows ? Math.max(0, rows - 1 - height) : Infinity;
  const tools = Math.min(wanted.tools, budget);
  return { tools, stream: Math.max(0, Math.min(wanted.stream, budget - tools)) };
}
