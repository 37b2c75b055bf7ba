import { firstFailures, type OutputParser, type TestCase, type TestStatus } from "./types.js";

// `  ✔ a › adds`, `  ✔ adds (1.2s)`, `  ✘ [fail]: a › subs <message>`, `  - [skip] a › later`, `  - [todo] a › soon`,
// `  ✔ [expected fail] a › bug`, `  ✘ [unexpected pass]: a › bug <message>`; ava 4: `  ✖ a › subs <message>`.
// `  ✘ test/x.test.js exited with a non-zero exit code: 1` (a file that did not load), `  ✘ Timed out while running tests`.
const LINE = /^\s+(✔|✘|✖|-) (?:\[(fail|skip|todo|unexpected pass)\]: ?|\[(skip|todo|expected fail)\] )?(.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
// The closing counts after the `─` rule: `1 test failed`, `3 tests passed`, `1 test skipped`, `1 test todo`.
const COUNT = /^\s+(\d+) (?:tests?|known failures?) (passed|failed|skipped|todo)\s*$/;
const MAX_LINE = 2000;

/** ava's default reporter: every test on its own line (named `file › title` when several files ran) and the closing counts. */
export const parseAva: OutputParser = (text) => {
  const lines = text.split("\n");
  const rule = lines.findIndex((l) => l.trim() === "─");
  if (rule < 0) return null;
  const counts: Record<string, number> = {};
  for (const line of lines.slice(rule)) {
    const m = COUNT.exec(line);
    if (m) counts[m[2]] = (counts[m[2]] ?? 0) + Number(m[1]);
  }
  if (Object.keys(counts).length === 0) return null;
  const titles = failureTitles(lines.slice(rule));
  const tests = new Map<string, TestCase>();
  for (const line of lines.slice(0, rule)) {
    const m = line.length > MAX_LINE ? null : LINE.exec(line);
    if (!m) continue;
    const failed = m[1] === "✘" || m[1] === "✖";
    const status: TestStatus = m[1] === "✔" ? "passed" : failed ? "failed" : "skipped";
    const id = failed ? titleOf(m[4], titles) : m[4];
    tests.set(id, { id, status });
  }
  const listed = [...tests.values()];
  const skipped = (counts.skipped ?? 0) + (counts.todo ?? 0);
  return {
    passedCount: counts.passed ?? listed.filter((t) => t.status === "passed").length,
    failedCount: counts.failed ?? 0,
    failures: firstFailures(listed.filter((t) => t.status === "failed").map((t) => t.id)),
    tests: listed.length ? listed : null,
    ...(skipped ? { skippedCount: skipped } : {}),
  };
};

/** The lines of the failure details after the rule: each failure is headed by its title alone on a line. */
function failureTitles(details: string[]): Set<string> {
  return new Set(details.filter((l) => l.length <= MAX_LINE && /^ {2}\S/.test(l)).map((l) => l.trim()));
}

/**
 * A failed test's title: its line carries the error's message after the title, so the title is the longest failure
 * heading the line starts with (a whole word); without one (details cut off), the line as written.
 */
function titleOf(text: string, titles: Set<string>): string {
  let best: string | null = null;
  for (const t of titles) if ((text === t || text.startsWith(`${t} `)) && (best === null || t.length > best.length)) best = t;
  return best ?? text.trimEnd();
}
