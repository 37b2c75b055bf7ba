import { firstFailures, type OutputParser } from "./types.js";

const PASSING = /^\s*(\d+) passing \(/m;
const FAILING = /^\s*(\d+) failing\s*$/m;
const FAILURE_HEAD = /^\s{2}\d+\) (.*)$/;

/** Mocha's spec reporter. */
export const parseMocha: OutputParser = (text) => {
  const passing = PASSING.exec(text);
  if (!passing) return null;
  const failing = FAILING.exec(text);
  const afterSummary = failing ? text.slice(failing.index).split("\n").slice(1) : [];
  return {
    passedCount: Number(passing[1]),
    failedCount: failing ? Number(failing[1]) : 0,
    failures: firstFailures(failureTitles(afterSummary)),
  };
};

// After "N failing", each failure's title spans lines: `  1) suite` then indented parts, the last ending in `:`.
function failureTitles(lines: string[]): string[] {
  const titles: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = FAILURE_HEAD.exec(lines[i]);
    if (!head) continue;
    const parts = [head[1].trim()];
    while (!parts[parts.length - 1].endsWith(":") && i + 1 < lines.length && parts.length < 10) {
      const next = lines[++i].trim();
      if (next === "") break;
      parts.push(next);
    }
    titles.push(parts.join(" > ").replace(/:$/, ""));
  }
  return titles;
}
