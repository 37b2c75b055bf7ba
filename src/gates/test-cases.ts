import { jestDefault } from "./parsers/jest-default.js";
import { parsePytest } from "./parsers/pytest.js";
import type { TestCase, TestStatus } from "./parsers/types.js";
import { vitestDefault } from "./parsers/vitest-default.js";

/**
 * Per-test results from a runner's text output, where it lists every test: TAP (node --test off a terminal on
 * Node 20, tape), node's spec reporter, pytest with `-rA` (yolo sets PYTEST_ADDOPTS), mocha's spec reporter, jest's
 * verbose output (yolo asks for it).
 * Null when the output lists no tests (counts are all there is).
 */
export function testCasesFromOutput(output: string, root: string): TestCase[] | null {
  const text = output.replace(ANSI, "").replace(/\r\n?/g, "\n");
  for (const read of [vitestCases, jestCases, tapCases, pytestCases, specCases]) {
    const cases = read(text);
    if (cases?.length) return dedupe(cases.map((c) => ({ ...c, id: relativeId(c.id, root) })));
  }
  return null;
}

// Absolute paths in test names (node names a file that failed to load by its path) become project-relative.
function relativeId(id: string, root: string): string {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return id.replaceAll(`file://${prefix}`, "").replaceAll(prefix, "");
}

/** Two tests with the same name in different files: the second is `name #2`, so neither hides the other. */
function dedupe(cases: TestCase[]): TestCase[] {
  const seen = new Map<string, number>();
  return cases.map((c) => {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    return n === 1 ? c : { ...c, id: `${c.id} #${n}` };
  });
}

// Colours are disabled for gate commands, but a runner that forces them must not defeat the readers.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

// Vitest's verbose reporter (yolo asks for it): ` ✓ test/a.test.js > suite > name 3ms`, `×` failed, `↓` skipped.
const VITEST_LINE = /^\s*(✓|√|×|✗|↓)\s+(\S.*? > .+?)(?:\s+\d+(?:\.\d+)?\s?m?s)?\s*$/;

function vitestCases(text: string): TestCase[] | null {
  if (!/^\s*Test Files\s{2,}/m.test(text)) return null;
  const cases: TestCase[] = [];
  for (const line of text.split("\n")) {
    const m = VITEST_LINE.exec(line);
    if (m) cases.push({ id: m[2], status: m[1] === "↓" ? "skipped" : m[1] === "×" || m[1] === "✗" ? "failed" : "passed" });
  }
  if (cases.length) return cases;
  // The default reporter: failing tests in full, a failing file's top-level tests, green files as counts (vitest-default.ts).
  const read = vitestDefault(text).tests;
  return read.length ? read : null;
}

// Jest's verbose output (yolo asks for it): a `PASS file` / `FAIL file` header, then describe blocks as indented
// plain lines and tests as `✓ name (3 ms)`, `✕ name`, `○ skipped name`, `✎ todo name`; the `● …` failure details follow.
// With colours forced, jest pads its inverse-video ` PASS ` badge: one leading space once the colour codes are gone.
const JEST_FILE = /^ ?(PASS|FAIL)\s+(\S+)/;
const JEST_TEST = /^(\s+)(✓|√|✕|×|○|✎)\s+(?:(?:skipped|todo)\s+)?(.+?)(?:\s+\(\d+(?:\.\d+)?\s?m?s\))?\s*$/;

function jestCases(text: string): TestCase[] | null {
  if (!/^Tests:\s+.*\d+ total/m.test(text)) return null;
  const cases: TestCase[] = [];
  let file: string | null = null;
  let stack: Array<{ indent: number; name: string }> = [];
  for (const line of text.split("\n")) {
    const header = JEST_FILE.exec(line);
    if (header) {
      file = header[2];
      stack = [];
      continue;
    }
    // The failure details and the summary end a file's tree.
    if (file === null || /^\s*●/.test(line) || /^Test Suites:/.test(line)) {
      file = null;
      continue;
    }
    const test = JEST_TEST.exec(line);
    const indent = (test?.[1] ?? /^\s*/.exec(line)?.[0] ?? "").length;
    if (!line.trim()) continue;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    if (!test) {
      stack.push({ indent, name: line.trim() });
      continue;
    }
    const status: TestStatus = test[2] === "✓" || test[2] === "√" ? "passed" : test[2] === "✕" || test[2] === "×" ? "failed" : "skipped";
    cases.push({ id: [file, ...stack.map((s) => s.name), test[3]].join(" > "), status });
  }
  if (cases.length) return cases;
  // The default reporter with several files: the failing tests only, the others summed up per file (jest-default.ts).
  const read = jestDefault(text).tests;
  return read.length ? read : null;
}

const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const RESULT = /^(\s*)(not ok|ok) \d+(?: -)? ?(.*?)\s*$/;
const DIRECTIVE = /\s#\s*(todo|skip)\b.*$/i;

// TAP with node's `# Subtest:` lines: leaves only (a suite's own line comes after its subtests, one level up).
function tapCases(text: string): TestCase[] | null {
  if (!/^\s*(?:not )?ok \d+/m.test(text) || !/^\s*(?:# (?:pass|fail|tests)\s+\d+|1\.\.\d+)\s*$/m.test(text)) return null;
  const stack: Array<{ indent: number; name: string; parent: boolean }> = [];
  const cases: TestCase[] = [];
  for (const line of text.split("\n")) {
    const sub = SUBTEST.exec(line);
    if (sub) {
      const indent = sub[1].length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      if (stack.length) stack[stack.length - 1].parent = true;
      stack.push({ indent, name: sub[2], parent: false });
      continue;
    }
    const res = RESULT.exec(line);
    if (!res) continue;
    const indent = res[1].length;
    const directive = DIRECTIVE.exec(res[3]);
    const name = res[3].replace(DIRECTIVE, "").trim();
    const own = stack.findIndex((s) => s.indent === indent && s.name === name);
    if (own >= 0 && stack[own].parent) {
      stack.splice(own);
      continue;
    }
    const ancestors = stack.filter((s) => s.indent < indent).map((s) => s.name);
    if (own >= 0) stack.splice(own);
    const status: TestStatus = directive ? "skipped" : res[2] === "ok" ? "passed" : "failed";
    cases.push({ id: [...ancestors, name].join(" > "), status });
  }
  return cases;
}

// pytest: one reader for counts and tests (parsers/pytest.ts).
const pytestCases = (text: string): TestCase[] | null => parsePytest(text)?.tests ?? null;

// node's spec reporter and mocha's: `✔ name (1ms)` / `✖ name` / `﹣ name # SKIP`, nested by indentation under `▶ suite`;
// mocha numbers its failures instead (`1) name`), and its suites are plain lines, so its ids are the test titles.
const SPEC_LINE = /^(\s*)(✔|✓|✖|✗|×|﹣|-|▶|\d+\))\s+(.+?)(?:\s+\([\d.]+m?s\))?\s*$/;

function specCases(text: string): TestCase[] | null {
  const lines = text.split("\n");
  const end = lines.findIndex((l) => /^\s*(ℹ tests \d+|\d+ passing \()/.test(l));
  if (end < 0) return null;
  const stack: Array<{ indent: number; name: string }> = [];
  const cases: TestCase[] = [];
  for (const line of lines.slice(0, end)) {
    const m = SPEC_LINE.exec(line);
    if (!m || (m[2] === "-" && !/#\s*SKIP/i.test(m[3]))) continue;
    const indent = m[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const name = m[3].replace(/\s+#\s*(SKIP|TODO)\b.*$/i, "");
    if (m[2] === "▶") {
      stack.push({ indent, name });
      continue;
    }
    const status: TestStatus = m[2] === "✔" || m[2] === "✓" ? "passed" : m[2] === "﹣" || m[2] === "-" || /#\s*(SKIP|TODO)/i.test(m[3]) ? "skipped" : "failed";
    cases.push({ id: [...stack.map((s) => s.name), name].join(" > "), status });
  }
  return cases.length ? cases : null;
}

const CRA_SCRIPT = /^\s*(?:react-scripts|craco|react-app-rewired)\s+test\b/;

/**
 * The command yolo runs for a gate when no runner's structured report is asked for (src/gates/structured/): the
 * configured one, with cargo's stderr into its stdout, and Create React App's `--watchAll=false`. The gate's recorded
 * command, events and definition keep the configured text.
 */
export function reportingCommand(command: string, scripts: Record<string, string>): string {
  const test = /^\s*npm\s+(?:test|t|run\s+test)\s*$/.test(command) ? scripts.test : null;
  // Create React App's test script watches unless CI is set; yolo sets no CI (the suite sees the user's environment),
  // so it says "no watch" in the runner's own words.
  if (test && CRA_SCRIPT.test(test) && !/--watch/.test(test)) return `${command.trim()} -- --watchAll=false`;
  // cargo names each test binary on stderr and the binary prints its tests on stdout: one stream keeps them in order,
  // so each test is tied to its crate (workspace-cases.ts).
  // `--no-fail-fast`: every test binary runs though an earlier one failed, so each test has its result, not "missing".
  const cargo = /^\s*cargo\s+test((?:\s+[^|;&<>`$()\n]*)?)$/.exec(command);
  if (cargo) return `cargo test${/--no-fail-fast\b/.test(cargo[1]) ? "" : " --no-fail-fast"}${cargo[1].trimEnd()} 2>&1`;
  return command;
}
