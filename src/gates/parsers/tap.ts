import { firstFailures, sumMatches, type OutputParser } from "./types.js";

const PASS = /^# pass\s+(\d+)\s*$/gm;
const FAIL = /^# fail\s+(\d+)\s*$/gm;
const CANCELLED = /^# cancelled\s+(\d+)\s*$/gm;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
// `not ok 3 - fails hard`; a `# TODO` / `# SKIP` directive means the failure does not count.
const NOT_OK = /^(\s*)not ok \d+(?: -)? ?(.*?)\s*$/;
const DIRECTIVE = /\s#\s*(todo|skip)\b/i;

/** TAP with `# pass` / `# fail` totals: `node --test` when not on a terminal (Node 20), tape and friends. */
export const parseTap: OutputParser = (text) => {
  const passed = sumMatches(text, PASS);
  const failed = sumMatches(text, FAIL);
  if (passed === null && failed === null) return null;
  return {
    passedCount: passed,
    failedCount: failed === null ? null : failed + (sumMatches(text, CANCELLED) ?? 0),
    failures: firstFailures(failedNames(text.split("\n"))),
  };
};

// Names failing leaf tests as `suite > test`, using node's `# Subtest:` lines (indented per level) for the
// ancestors, and skipping suites that failed only because a subtest did.
function failedNames(lines: string[]): string[] {
  const stack: Array<{ indent: number; name: string }> = [];
  const names: string[] = [];
  lines.forEach((line, i) => {
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      const indent = subtest[1].length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      stack.push({ indent, name: subtest[2] });
      return;
    }
    const notOk = NOT_OK.exec(line);
    if (!notOk || DIRECTIVE.test(notOk[2]) || failedOnlyThroughSubtests(lines, i)) return;
    const indent = notOk[1].length;
    const ancestors = stack.filter((s) => s.indent < indent).map((s) => s.name);
    names.push([...ancestors, notOk[2]].join(" > "));
  });
  return names;
}

function failedOnlyThroughSubtests(lines: string[], notOkIndex: number): boolean {
  for (let i = notOkIndex + 1; i < Math.min(lines.length, notOkIndex + 12); i++) {
    const trimmed = lines[i].trim();
    if (trimmed === "...") return false;
    if (trimmed.startsWith("failureType:")) return trimmed.includes("subtestsFailed");
  }
  return false;
}
