import { collectedUnder, isTestId, MAX_LINE, nodeIdAt } from "./pytest-ids.js";
import { countOf, firstFailures, type OutputParser, type TestCase } from "./types.js";

// The counts line ends each session: `=== 2 failed, 1 passed, 1 xfailed in 3.07s ===`, bare under `-q`
// (`2 failed, 1 passed in 0.41s`), `in 65.12s (0:01:05)` for long runs. `-qq` prints none.
const COUNTS = /^=* ?((?:\d+ [a-z]+|no tests ran)(?:, \d+ [a-z]+)*) in [\d.]+s(?: \([\d:.]+\))? ?=*$/;
const COUNT_WORDS = /\b(passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun|no tests ran)\b/;
// Section headers: `=== FAILURES ===`, `=== short test summary info ===` (printed with borders under -q and -qq too).
const SECTION = /^={3,} (.+?) ={3,}$/;
const SHORT_HEADER = "short test summary info";
// `FAILED`/`ERROR` lines wherever they are: the failing tests' names for display (the short summary names them).
const FAILED_LINE = /^(FAILED|ERROR) /;
const WORDS = ["PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS", "RERUN"] as const;
type Word = (typeof WORDS)[number];
// The runner's own count: an expected failure (XFAIL) and a non-strict unexpected pass (XPASS) are passes; a strict
// XPASS is printed FAILED.
const PASSES: Word[] = ["PASSED", "XFAIL", "XPASS"];

/**
 * pytest's terminal reporter, under any verbosity: counts from every session's counts line (several pytest commands in
 * one gate add up); every test from `-rA`'s short summary (`PASSED id`, `XFAIL id - reason`) and `-v`'s lines
 * (`id PASSED [ 50%]`). A file or folder that fails to collect (`ERROR tests/test_x.py`) fails every test under it.
 * The list is kept only when it adds up to the counts (pytest's default summary names the failures only).
 */
export const parsePytest: OutputParser = (text) => {
  const read = readSessions(text);
  if (!read.seen) return null;
  const tests = listedTests(read.words, read.counts);
  const passedCount = read.counts ? read.counts.passed : tests ? tests.filter((t) => t.status === "passed").length : null;
  const failedCount = read.counts ? read.counts.failed : tests ? tests.filter((t) => t.status === "failed").length : null;
  return { passedCount, failedCount, failures: failureNames(text), ...(tests ? { tests } : {}) };
};

interface Read {
  seen: boolean;
  counts: { passed: number; failed: number } | null;
  words: Map<string, Set<Word>>;
}

// One pass: where a line may list a test depends on the part of the report it is in (progress, sections, summary).
function readSessions(text: string): Read {
  const out: Read = { seen: false, counts: null, words: new Map() };
  let part: "progress" | "sections" | "short" = "progress";
  for (const line of text.split("\n")) {
    if (line.length > MAX_LINE) continue;
    const counts = COUNTS.exec(line);
    if (counts && COUNT_WORDS.test(counts[1])) {
      out.seen = true;
      out.counts = addCounts(out.counts, counts[1]);
      part = "progress";
      continue;
    }
    const section = SECTION.exec(line);
    if (section) {
      part = section[1] === SHORT_HEADER ? "short" : section[1] === "test session starts" ? "progress" : "sections";
      if (part === "short") out.seen = true;
      continue;
    }
    if (part === "short") note(out.words, shortLine(line));
    else if (part === "progress") note(out.words, verboseLine(line));
  }
  return out;
}

function addCounts(sum: Read["counts"], summary: string): NonNullable<Read["counts"]> {
  const passed = countOf(summary, ["passed", "xfailed", "xpassed"]);
  const failed = countOf(summary, ["failed", "error", "errors"]);
  return { passed: (sum?.passed ?? 0) + passed, failed: (sum?.failed ?? 0) + failed };
}

function note(words: Read["words"], hit: { id: string; word: Word } | null): void {
  if (hit) words.set(hit.id, (words.get(hit.id) ?? new Set()).add(hit.word));
}

// The short summary: `PASSED id`, `FAILED id - message`, `XPASS id reason` (pytest 7), `ERROR tests/test_x.py`.
// `SKIPPED [2] tests/test_x.py:12: reason` names a line, not a test: a skipped test is simply not run.
function shortLine(line: string): { id: string; word: Word } | null {
  const space = line.indexOf(" ");
  const word = line.slice(0, space) as Word;
  if (space < 0 || word === "SKIPPED" || !WORDS.includes(word)) return null;
  const at = nodeIdAt(line, space + 1);
  return at ? { id: at.id, word } : null;
}

// `-v`: `tests/test_x.py::test_y[a b] PASSED   [ 50%]`, `… XFAIL (reason)`, `… RERUN`.
function verboseLine(line: string): { id: string; word: Word } | null {
  if (!line.includes("::")) return null;
  const at = nodeIdAt(line, 0);
  if (!at || !isTestId(at.id) || line[at.end] !== " ") return null;
  const rest = line.slice(at.end + 1);
  const word = WORDS.find((w) => rest.startsWith(w) && (rest.length === w.length || rest[w.length] === " "));
  return word ? { id: at.id, word } : null;
}

/**
 * Every listed test with its outcome: a failure or an error anywhere (a teardown error after a pass) fails it; a
 * file that did not collect fails what is under it. Null unless the listed passes and failures add up to the counts.
 */
function listedTests(words: Read["words"], counts: Read["counts"]): TestCase[] | null {
  const all = [...words];
  if (all.length === 0) return null;
  const listedPassed = all.filter(([, w]) => PASSES.some((p) => w.has(p))).length;
  const listedFailed = all.reduce((n, [, w]) => n + (w.has("FAILED") ? 1 : 0) + (w.has("ERROR") ? 1 : 0), 0);
  if (counts && (listedPassed !== counts.passed || listedFailed !== counts.failed)) return null;
  // Without a counts line (-qq), only a list that names passes shows `-rA` was in effect.
  if (!counts && listedPassed === 0) return null;
  return all.map(([id, w]) => {
    const failed = w.has("FAILED") || w.has("ERROR");
    const status = failed ? "failed" : PASSES.some((p) => w.has(p)) ? "passed" : "skipped";
    const test: TestCase = { id, status };
    if (!isTestId(id)) test.unit = collectedUnder(id);
    if (w.has("RERUN")) test.flaky = true;
    return test;
  });
}

function failureNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split("\n")) {
    if (line.length > MAX_LINE || !FAILED_LINE.test(line)) continue;
    const at = nodeIdAt(line, line.indexOf(" ") + 1);
    if (at) names.push(at.id);
  }
  return firstFailures(names);
}
