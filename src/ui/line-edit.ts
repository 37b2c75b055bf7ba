import { stripControl, stripEscapes } from "./format.js";

/** The keys Ink reports with an input chunk (the subset line editing needs). */
export interface EditKey {
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
}

/**
 * One chunk of keyboard input applied to a one-line answer: typing, paste, Backspace, Ctrl+U to clear, Enter
 * to submit. A paste or a fast typist can deliver several keys in one chunk (text, backspaces, the Enter).
 */
export function editLine(value: string, input: string, key: EditKey): { value: string; submit?: string } {
  if (key.return) return { value, submit: value };
  if (key.backspace || key.delete) return { value: dropLast(value) };
  if (key.ctrl && input === "u") return { value: "" };
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return { value };
  let next = value;
  for (const ch of stripEscapes(input)) {
    if (ch === "\r" || ch === "\n") return { value: next, submit: next };
    next = ch === "\x7f" || ch === "\b" ? dropLast(next) : next + stripControl(ch);
  }
  return { value: next };
}

const dropLast = (s: string) => Array.from(s).slice(0, -1).join("");
