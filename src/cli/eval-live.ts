import type { EvalProgress } from "../eval/progress.js";
import type { TaskResult } from "../eval/types.js";

/** Where an eval's progress goes: a live table redrawn on a terminal, or a plain line per judged task. */
export interface EvalProgressOutput {
  started(): void;
  finished(r: TaskResult): void;
  /** Clears the live table (the final summary follows it); nothing for plain lines. */
  close(): void;
}

/** A plain line per judged task: for a pipe, a CI log, or stderr beside --json. */
export function plainProgress(progress: EvalProgress, out: NodeJS.WritableStream): EvalProgressOutput {
  return { started: () => {}, finished: (r) => out.write(`${progress.line(r)}\n`), close: () => {} };
}

/**
 * On a terminal: each judged task's line scrolls above a table redrawn in place (cursor up over the last table, clear
 * to the end of the screen), so the counts stay in view; the table is cleared at the end for the summary.
 */
export function liveTable(progress: EvalProgress, out: NodeJS.WritableStream): EvalProgressOutput {
  let drawn = 0;
  const erase = () => {
    if (drawn) out.write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = (above?: string) => {
    erase();
    const lines = progress.table();
    out.write(`${above ? `${above}\n` : ""}${lines.join("\n")}\n`);
    drawn = lines.length;
  };
  draw();
  return { started: () => draw(), finished: (r) => draw(progress.line(r)), close: erase };
}

/** The live table only on a real terminal outside CI and not a dumb one (the run's live view follows the same rule). */
export function wantsLiveTable(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && (env.CI ?? "") === "" && env.TERM !== "dumb";
}
