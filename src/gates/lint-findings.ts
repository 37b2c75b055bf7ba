/** More normalized lines than this and a lint's findings are not compared line by line (the record stays small). */
export const FINDINGS_MAX = 1000;

// Colour and cursor codes (CSI and OSC sequences): a tool colours on one run and not on another.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

// The end marker CappedOutput writes when it stopped keeping a gate's output (src/exec/capped-output.ts).
const CUT = /^\[… \d+ (?:more )?bytes (?:not kept|omitted) …\]$/m;

/**
 * Lines that are not findings, dropped. Summaries that restate a count in words that change with it (eslint's
 * `✖ 1 problem` / `✖ 2 problems`, tsc's `Found 1 error in a.ts:3` / `Found 2 errors in the same file`, prettier's
 * `in the above file` / `in 2 files`, cargo's `due to 1 previous error` / `due to 2 previous errors`, ruff's
 * `[*] 1 fixable`): the findings they count are listed on lines of their own. Build progress that depends on what
 * is cached or on timing (cargo's `Compiling …`, `waiting for other jobs`, go's `downloading …`).
 */
const NOT_FINDINGS = [
  /^✖ # problems? \(/,
  /potentially fixable with the `--fix` option/,
  /^Found # errors?\b/,
  /^\[warn\] Code style issues found in /,
  /^\[\*\] # fixable with /,
  /^No fixes available \(/,
  /^error: could not compile `/,
  /^warning: `[^`]+` \(.+\) generated # warnings?/,
  /^warning: build failed, waiting for other jobs to finish/,
  /^(?:Compiling|Checking|Finished|Blocking|Downloading|Downloaded|Updating|Locking|Adding|Fresh) /,
  /^go: downloading /,
];

/**
 * A lint or type check's findings: each line of its output, normalized so that the same finding reads the same on
 * another run. ANSI codes are stripped, the project's root is cut from paths (eslint prints absolute ones), runs of
 * whitespace become one space (eslint pads its columns to the widest position), every run of digits becomes `#`
 * (line and column numbers shift when code above moves), and count summaries and build progress are dropped. File paths stay. Null when
 * the output cannot be compared whole: cut by yolo's output limit, or more than FINDINGS_MAX lines.
 */
export function lintFindings(output: string, root: string): string[] | null {
  if (CUT.test(output)) return null;
  const lines: string[] = [];
  for (const raw of output.replace(ANSI, "").split(/\r?\n|\r/)) {
    const line = normalizeLine(raw, root);
    if (!line || NOT_FINDINGS.some((s) => s.test(line))) continue;
    if (lines.push(line) > FINDINGS_MAX) return null;
  }
  return lines;
}

/** A gate run's findings from the output it kept (`GateRun.outputs`, the one to read last); null without one. */
export function runFindings(output: string | undefined, root: string): string[] | null {
  return output === undefined ? null : lintFindings(output, root);
}

// One output line as a finding: root cut, whitespace collapsed, digits replaced (see lintFindings).
function normalizeLine(raw: string, root: string): string {
  const cut = root && root !== "/" ? raw.split(`${root}/`).join("").split(root).join(".") : raw;
  return cut.replace(/\s+/g, " ").trim().replace(/\d+/g, "#");
}

/**
 * The findings `now` has more often than `before` (a multiset difference: a line printed twice where the baseline
 * printed it once is one new finding), in the order they appear now.
 */
export function newFindings(before: readonly string[], now: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of now) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else added.push(line);
  }
  return added;
}
