/**
 * One failing test's own text cut from a runner's output (its error, diagnostic and captured output), so dev reads
 * each target's failure rather than only the end of the gate's output. Readers: node --test (TAP and spec), pytest,
 * vitest, jest. Null when the output cannot be cut for that test.
 */
export function testFailureText(output: string, id: string): string | null {
  const lines = output.replace(ANSI, "").replace(/\r\n?/g, "\n").split("\n");
  for (const cut of [tapBlock, pytestBlock, vitestBlock, jestBlock, specBlock]) {
    const block = cut(lines, id);
    if (block) return trimBlank(block).join("\n");
  }
  return null;
}

/** Each target's failure text, now and at the baseline, bounded per test and in all; cut at a line and saying so. */
export interface TargetOutput {
  id: string;
  /** This run's failure text for the test, or null when its output cannot be cut per test. */
  output: string | null;
  /** The baseline run's failure text for it, when the baseline's log was read and could be cut. */
  baseline?: string;
}

export const TARGET_OUTPUT_BYTES = 2048;
export const TARGET_OUTPUT_TOTAL_BYTES = 8192;
// Less room than this left in all: no more texts (a cut note with a line or two is no use).
const MIN_USEFUL_BYTES = 256;

/**
 * The failure texts of `targets` from this run's outputs (the first that can be cut for a test wins) and the
 * baseline's, each at most `each` bytes and all together at most `total`; targets past the total are left out.
 */
export function targetOutputs(
  targets: string[],
  outputs: string[],
  baseline: string | null,
  each = TARGET_OUTPUT_BYTES,
  total = TARGET_OUTPUT_TOTAL_BYTES,
): TargetOutput[] {
  const out: TargetOutput[] = [];
  let left = total;
  for (const id of targets) {
    if (left < MIN_USEFUL_BYTES) break;
    const now = firstCut(outputs, id);
    const then = baseline === null ? null : testFailureText(baseline, id);
    if (now === null && then === null) continue;
    const entry: TargetOutput = { id, output: now === null ? null : bounded(now, Math.min(each, left)) };
    left -= bytes(entry.output ?? "");
    if (then !== null && left >= MIN_USEFUL_BYTES) {
      entry.baseline = bounded(then, Math.min(each, left));
      left -= bytes(entry.baseline);
    }
    out.push(entry);
  }
  return out;
}

function firstCut(outputs: string[], id: string): string | null {
  for (const output of outputs) {
    const text = testFailureText(output, id);
    if (text) return text;
  }
  return null;
}

/** At most `max` bytes of `text`, cut at a line end, with a line saying how much was left out. */
export function bounded(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let used = 0;
  const note = (n: number) => `[… cut: ${n} more lines of this test's output]`;
  for (const line of lines) {
    const size = bytes(line) + 1;
    if (used + size + bytes(note(lines.length)) > max) break;
    kept.push(line);
    used += size;
  }
  return [...kept, note(lines.length - kept.length)].join("\n");
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const indentOf = (line: string) => /^\s*/.exec(line)?.[0].length ?? 0;

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start].trim()) start++;
  while (end > start && !lines[end - 1].trim()) end--;
  return lines.slice(start, end);
}

// The path of names in a `suite > test` id (TAP, node's spec reporter, vitest, jest).
const namesOf = (id: string) => id.split(" > ");

const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const TAP_RESULT = /^(\s*)not ok \d+(?: -)? ?(.*?)\s*$/;

/** node's TAP: from the test's `# Subtest:` line to the end of its YAML diagnostic (`...`). */
function tapBlock(lines: string[], id: string): string[] | null {
  const path = namesOf(id);
  const stack: string[] = [];
  const indents: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const sub = SUBTEST.exec(lines[i]);
    if (!sub) continue;
    const indent = sub[1].length;
    while (indents.length && indents[indents.length - 1] >= indent) {
      indents.pop();
      stack.pop();
    }
    stack.push(sub[2]);
    indents.push(indent);
    if (stack.join(" > ") !== path.join(" > ")) continue;
    for (let j = i + 1; j < lines.length; j++) {
      const res = TAP_RESULT.exec(lines[j]);
      if (!res || res[1].length !== indent || res[2] !== sub[2]) continue;
      let end = j + 1;
      while (end < lines.length && lines[end].trim() !== "...") end++;
      return lines.slice(i, Math.min(end + 1, lines.length));
    }
  }
  return null;
}

const PYTEST_HEADER = /^_{3,} (.+?) _{3,}$/;
const PYTEST_SECTION_END = /^(?:={3,}|_{3,} .+ _{3,}$)/;

/** pytest: the `___ Class.test_name[param] ___` section of the FAILURES or ERRORS report. */
function pytestBlock(lines: string[], id: string): string[] | null {
  if (!id.includes("::")) return null;
  const title = id.split("::").slice(1).join(".");
  const start = lines.findIndex((l) => PYTEST_HEADER.exec(l)?.[1] === title);
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !PYTEST_SECTION_END.test(lines[end])) end++;
  return lines.slice(start, end);
}

const VITEST_FAIL = /^\s*FAIL\s+(.+?)\s*$/;
const VITEST_SEPARATOR = /^\s*⎯{3,}/;

/** vitest: the ` FAIL  file > suite > name` block up to the next separator or FAIL line. */
function vitestBlock(lines: string[], id: string): string[] | null {
  const start = lines.findIndex((l) => VITEST_FAIL.exec(l)?.[1] === id);
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !VITEST_SEPARATOR.test(lines[end]) && !VITEST_FAIL.test(lines[end]) && !/^\s*Test Files\s/.test(lines[end])) end++;
  return lines.slice(start, end);
}

// With colours forced, jest pads its inverse-video ` PASS ` badge: one leading space once the colour codes are gone.
const JEST_FILE = /^ ?(PASS|FAIL)\s+(\S+)/;
const JEST_BULLET = /^(\s*)● (.+?)\s*$/;

/** jest: the `● suite › name` block under the test file's `FAIL file` header. */
function jestBlock(lines: string[], id: string): string[] | null {
  const [file, ...names] = namesOf(id);
  if (!names.length) return null;
  const bullet = names.join(" › ");
  let inFile = false;
  for (let i = 0; i < lines.length; i++) {
    const header = JEST_FILE.exec(lines[i]);
    if (header) inFile = header[2] === file;
    const m = JEST_BULLET.exec(lines[i]);
    if (!inFile || !m || m[2] !== bullet) continue;
    let end = i + 1;
    while (end < lines.length && !JEST_BULLET.test(lines[end]) && !JEST_FILE.test(lines[end]) && !/^Test Suites:/.test(lines[end])) end++;
    return lines.slice(i, end);
  }
  return null;
}

const SPEC_LINE = /^(\s*)(✔|✖|▶|﹣)\s+(.+?)(?:\s+\([\d.]+m?s\))?\s*$/;

/** node's spec reporter: the `✖ name` line under its `▶ suite` lines, and the lines indented under it. */
function specBlock(lines: string[], id: string): string[] | null {
  const path = namesOf(id);
  const stack: Array<{ indent: number; name: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "✖ failing tests:") break;
    const m = SPEC_LINE.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    if (m[2] === "▶") {
      stack.push({ indent, name: m[3] });
      continue;
    }
    if (m[2] !== "✖" || [...stack.map((s) => s.name), m[3]].join(" > ") !== path.join(" > ")) continue;
    let end = i + 1;
    while (end < lines.length && (!lines[end].trim() || indentOf(lines[end]) > indent)) end++;
    return lines.slice(i, end);
  }
  return null;
}
